"""A batch of roll rows checked column by column: each column's cells converted to the model
field's type and checked against that field's own rules (length, choices, validators), each
distinct value once. A roll repeats cities, breeds, dates and amounts thousands of times, and
checking each cell through `Field.clean` was most of an import's time."""

from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator

from dogtag.imports.files import cell_problem
from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Person, RabiesVaccination

# column -> (record, model field)
COLUMNS = {
    "owner_name": ("person", "name"),
    "owner_street": ("person", "street"),
    "owner_city": ("person", "city"),
    "owner_state": ("person", "state"),
    "owner_postal_code": ("person", "postal_code"),
    "owner_phone": ("person", "phone"),
    "owner_email": ("person", "email"),
    "animal_name": ("animal", "name"),
    "species": ("animal", "species"),
    "breed": ("animal", "breed"),
    "color": ("animal", "color"),
    "sex": ("animal", "sex"),
    "altered": ("animal", "altered"),
    "altered_evidence": ("animal", "altered_evidence"),
    "birth_date": ("animal", "birth_date"),
    "acquired_on": ("animal", "acquired_on"),
    "microchip": ("animal", "microchip"),
    "rabies_certificate": ("vaccination", "certificate_serial"),
    "vaccinated_on": ("vaccination", "vaccinated_on"),
    "rabies_expires_on": ("vaccination", "expires_on"),
    "vaccine_type": ("vaccination", "vaccine_type"),
    "vaccine_serial": ("vaccination", "vaccine_serial"),
    "veterinarian_name": ("vaccination", "veterinarian_name"),
    "veterinarian_address": ("vaccination", "veterinarian_address"),
    "veterinarian_phone": ("vaccination", "veterinarian_phone"),
    "rabies_tag": ("vaccination", "rabies_tag_number"),
    "license_year": ("license", "license_year"),
    "license_serial": ("license", "serial"),
    "license_issued_on": ("license", "issued_on"),
    "license_tax": ("license", "tax"),
    "license_late_fee": ("license", "late_fee"),
}
MODELS = {"person": Person, "animal": Animal, "vaccination": RabiesVaccination, "license": License}
DATES = {"birth_date", "acquired_on", "vaccinated_on", "rabies_expires_on", "license_issued_on"}
MONEY = {"license_tax", "license_late_fee"}
INTEGERS = {"license_year", "license_serial"}
BOOLEANS = {"altered"}
LOWERED = {"species", "sex"}
TRUE, FALSE = {"yes", "y", "true", "t", "1", "x"}, {"no", "n", "false", "f", "0", ""}
LARGEST_INTEGER = 2147483647  # PositiveIntegerField on both engines


def field(column):
    record, name = COLUMNS[column]
    return MODELS[record]._meta.get_field(name)


def _shown(fmt: str) -> str:
    return fmt.replace("%Y", "YYYY").replace("%m", "MM").replace("%d", "DD")


def _date(raw, date_format):
    try:
        return date.fromisoformat(raw), None
    except ValueError:
        pass
    try:
        return datetime.strptime(raw, date_format).date(), None
    except ValueError:
        return None, f"a date as {_shown(date_format)}"


def _money(raw, f):
    try:
        value = Decimal(raw.replace("$", "").replace(",", ""))
    except InvalidOperation:
        return None, "an amount in dollars and cents, e.g. 10.00"
    if not value.is_finite():
        return None, "an amount in dollars and cents, e.g. 10.00"
    if value < 0:
        return None, "an amount of $0.00 or more; a negative amount is refused"
    if value != value.quantize(Decimal(1).scaleb(-f.decimal_places)):
        return None, f"an amount with at most {f.decimal_places} decimal places (cents)"
    if value >= Decimal(10) ** (f.max_digits - f.decimal_places):
        return None, f"an amount under ${Decimal(10) ** (f.max_digits - f.decimal_places):,}"
    return value, None


def _integer(raw):
    if not raw.isascii() or not raw.isdigit():
        return None, "a whole number"
    value = int(raw)
    return (value, None) if value <= LARGEST_INTEGER else (None, f"a whole number up to {LARGEST_INTEGER:,}")


def _boolean(raw):
    lowered = raw.lower()
    if lowered in TRUE:
        return True, None
    if lowered in FALSE:
        return False, None
    return None, "yes or no"


class Column:
    """One column's conversion and the model field's own rules, with each distinct value's outcome
    remembered for the whole import."""

    def __init__(self, name, date_format):
        self.name, self.date_format = name, date_format
        self.field = field(name)
        self.seen = {}
        validators = [v for v in self.field.validators if not isinstance(v, MaxLengthValidator)]
        self.plain_text = (
            name not in DATES | MONEY | INTEGERS | BOOLEANS
            and not self.field.choices
            and all(type(v).__name__ == "ProhibitNullCharactersValidator" for v in validators)
        )
        self.max_length = getattr(self.field, "max_length", None)

    def _one(self, raw):
        if raw == "":
            return (False if self.name in BOOLEANS else (None if self.name in DATES | MONEY | INTEGERS else "")), None
        if self.name in DATES:
            return _date(raw, self.date_format)
        if self.name in MONEY:
            return _money(raw, self.field)
        if self.name in INTEGERS:
            return _integer(raw)
        if self.name in BOOLEANS:
            return _boolean(raw)
        if self.name in LOWERED:
            raw = raw.lower()
        problem = cell_problem(raw)
        if problem:
            return None, problem
        try:
            return self.field.clean(raw, None), None
        except ValidationError as e:
            return None, " ".join(e.messages)

    def convert(self, raws: list) -> tuple[list, list]:
        """The values of `raws` and the (index, rule) of each cell refused."""
        problems = []
        if self.plain_text:
            limit = self.max_length
            for i, raw in enumerate(raws):
                if len(raw) > limit:
                    problems.append((i, f"Ensure this value has at most {limit} characters (it has {len(raw)})."))
                elif raw and (raw[0] in "=+-@" or not raw.isprintable()):
                    problem = cell_problem(raw)
                    if problem:
                        problems.append((i, problem))
            return raws, problems
        seen, values = self.seen, []
        for i, raw in enumerate(raws):
            outcome = seen.get(raw)
            if outcome is None:
                outcome = seen[raw] = self._one(raw)
                if len(seen) > 10_000:  # a column of distinct values (serials) gains nothing from memory
                    seen.clear()
            values.append(outcome[0])
            if outcome[1]:
                problems.append((i, outcome[1]))
        return values, problems
