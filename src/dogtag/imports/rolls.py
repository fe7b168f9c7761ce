"""Reading an old system's roll (CSV or Excel) and planning its import, without writing.

A roll has one row per dog (or per dog and license year): its owner, the dog, optionally its
rabies certificate and a past license. Columns are Dogtag's field names (below) unless a mapping
file names the columns of another layout:

    columns: {owner_name: "Owner", animal_name: "Dog", birth_date: "DOB"}
    date_format: "%m/%d/%Y"
    values: {sex: {M: male, F: female}, altered: {Y: "yes", N: "no"}}
    defaults: {species: dog, owner_state: WI}

The plan matches owners (same name and address, normalised), animals (same microchip, or the
same owner, name and species), certificates and licenses already recorded, so a rerun adds
nothing; and it validates every new record with the registry models' own `full_clean()`.
"""

import csv
import hashlib
import io
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path

import yaml
from django.core.exceptions import ValidationError

from dogtag.imports.bulk import Maker
from dogtag.imports.models import ImportRow
from dogtag.licensing import law
from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Ownership, Person, RabiesVaccination, today
from dogtag.rules.decision import ZERO

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
REQUIRED = ("owner_name", "animal_name")
LICENSE_NOT_IN_ROLL = {
    "municipality",
    "holder",
    "animal",
    "issued_by",
    "payment",
    "vaccination",
    "citations",
    "voided_at",
    "void_reason",
    "revocation",
    "inspection_consent_on",
    "dogs_authorized",
}
DEFAULTS = {"species": "dog", "owner_state": "WI", "sex": "unknown"}
DATES = {"birth_date", "acquired_on", "vaccinated_on", "rabies_expires_on", "license_issued_on"}
MONEY = {"license_tax", "license_late_fee"}
INTEGERS = {"license_year", "license_serial"}
BOOLEANS = {"altered"}
TRUE, FALSE = {"yes", "y", "true", "t", "1", "x"}, {"no", "n", "false", "f", "0", ""}
FIELD_OF = {(record, name): column for column, (record, name) in COLUMNS.items()}
ABBREVIATIONS = {
    "street": "st",
    "avenue": "ave",
    "road": "rd",
    "drive": "dr",
    "lane": "ln",
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "court": "ct",
    "place": "pl",
    "boulevard": "blvd",
}


class RollError(Exception):
    """The file or mapping cannot be read at all (not one bad row)."""


@dataclass
class Mapping:
    columns: dict = field(default_factory=dict)  # Dogtag column -> the file's header
    date_format: str = "%Y-%m-%d"
    values: dict = field(default_factory=dict)
    defaults: dict = field(default_factory=dict)

    @classmethod
    def load(cls, path) -> "Mapping":
        return cls.parse(Path(path).read_bytes() if path else None)

    @classmethod
    def parse(cls, text) -> "Mapping":
        if not text:
            return cls()
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError as e:
            raise RollError(f"The mapping is not valid YAML: {e}") from e
        if not isinstance(data, dict):
            raise RollError("The mapping is a YAML mapping with columns:, date_format:, values: and defaults:.")
        unknown = set(data.get("columns", {})) - set(COLUMNS)
        if unknown:
            raise RollError(
                f"The mapping names unknown columns: {', '.join(sorted(unknown))}; known: {', '.join(COLUMNS)}"
            )
        return cls(
            data.get("columns", {}),
            data.get("date_format", "%Y-%m-%d"),
            data.get("values", {}),
            data.get("defaults", {}),
        )


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def read_table(name: str, content: bytes) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header and (line number, cells) of each row of a CSV or Excel file."""
    if name.lower().endswith((".xlsx", ".xlsm")):
        import openpyxl

        try:
            book = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        except Exception as e:  # openpyxl raises many kinds for a file that is not a workbook
            raise RollError(f"{name} is not an Excel workbook: {e}") from e
        rows = book.worksheets[0].iter_rows(values_only=True)
        header = [_cell(c) for c in next(rows, ())]
        body = [(i, [_cell(c) for c in row]) for i, row in enumerate(rows, start=2) if any(c is not None for c in row)]
        return header, body
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = content.decode("cp1252")
    reader = csv.reader(io.StringIO(text))
    header = [h.strip() for h in next(reader, [])]
    body = []
    for row in reader:
        cells = [cell.strip() for cell in row]
        if any(cells):
            body.append((reader.line_num, cells))
    return header, body


def normalise(text: str) -> str:
    words = re.sub(r"[^\w\s]", " ", text.lower()).split()
    return " ".join(ABBREVIATIONS.get(w, w) for w in words)


@dataclass
class Problem:
    line: int
    column: str
    value: str
    rule: str


@dataclass
class RowPlan:
    line: int
    key: str
    person: object  # an existing pk or a new Person
    animal: object  # an existing pk or a new Animal
    vaccination: RabiesVaccination | None
    license: License | None


@dataclass
class Plan:
    file_name: str
    sha256: str
    rows: int = 0
    todo: list = field(default_factory=list)
    already: int = 0
    duplicates: list = field(default_factory=list)  # lines repeating an earlier line
    problems: list = field(default_factory=list)
    invalid_lines: set = field(default_factory=set)
    owners_new: int = 0
    owners_matched: int = 0
    animals_new: int = 0
    animals_matched: int = 0
    vaccinations_new: int = 0
    licenses_new: int = 0

    @property
    def valid(self) -> int:
        return len(self.todo)


class _Existing:
    """What the municipality already holds, read in a handful of queries."""

    def __init__(self, municipality):
        m = municipality.pk
        self.keys = set(ImportRow.objects.filter(municipality_id=m).values_list("row_key", flat=True))
        self.people = {}
        for pk, name, street in Person.objects.filter(municipality_id=m).values_list("pk", "name", "street"):
            self.people.setdefault((normalise(name), normalise(street)), pk)
        self.animals = {}
        self.chips = {}
        self.births = {}
        for pk, chip, born in Animal.objects.filter(municipality_id=m).values_list("pk", "microchip", "birth_date"):
            self.births[pk] = born
            if chip:
                self.chips[chip] = pk
        for animal, person, name, species in Ownership.objects.filter(municipality_id=m).values_list(
            "animal_id", "person_id", "animal__name", "animal__species"
        ):
            self.animals.setdefault((person, normalise(name), species), animal)
        self.certificates = dict(
            RabiesVaccination.objects.filter(municipality_id=m).values_list("certificate_serial", "animal_id")
        )
        self.licenses = set(
            License.objects.filter(municipality_id=m, voided_at=None).values_list("animal_id", "license_year")
        )


def _convert(column: str, raw: str, mapping: Mapping):
    """(value, problem rule) for one cell."""
    if column in DATES:
        if not raw:
            return None, None
        try:
            return date.fromisoformat(raw), None
        except ValueError:
            pass
        for fmt in (mapping.date_format,):
            try:
                return datetime.strptime(raw, fmt).date(), None
            except ValueError:
                continue
        return None, f"a date as {mapping.date_format.replace('%Y', 'YYYY').replace('%m', 'MM').replace('%d', 'DD')}"
    if column in MONEY:
        if not raw:
            return None, None
        try:
            value = Decimal(raw.replace("$", "").replace(",", ""))
        except InvalidOperation:
            return None, "an amount in dollars and cents, e.g. 10.00"
        return (value, None) if value.is_finite() else (None, "an amount in dollars and cents, e.g. 10.00")
    if column in INTEGERS:
        if not raw:
            return None, None
        return (int(raw), None) if raw.isdigit() else (None, "a whole number")
    if column in BOOLEANS:
        if raw.lower() in TRUE:
            return True, None
        if raw.lower() in FALSE:
            return False, None
        return None, "yes or no"
    if column in ("species", "sex"):
        return raw.lower(), None
    return raw, None


class _Validator:
    """The model's own validation (each field's `clean()` and the model's `clean()`), with each
    field value that passed once remembered: a roll repeats cities, breeds and dates thousands
    of times, and checking them again would cost most of an import's time."""

    def __init__(self, model, exclude, from_roll=()):
        # A field the roll never sets keeps the model's own default, which needs no check.
        self.fields = [
            f
            for f in model._meta.concrete_fields
            if f.name not in exclude and not f.auto_created and (f.name in from_roll or not f.has_default())
        ]
        self.passed = set()

    def errors(self, instance, unique_field=None) -> dict:
        errors = {}
        d, passed = instance.__dict__, self.passed
        for f in self.fields:
            raw = d[f.attname]
            if f.blank and raw in f.empty_values:
                continue
            key = (f.attname, raw)
            if key in passed:
                continue
            try:
                d[f.attname] = f.clean(raw, instance)
                passed.add(key)
            except ValidationError as e:
                errors[f.name] = e.messages
        # The model's clean(); its uniqueness check is made in bulk by the plan instead.
        held = getattr(instance, unique_field) if unique_field else None
        if unique_field:
            setattr(instance, unique_field, "")
        try:
            instance.clean()
        except ValidationError as e:
            for name, messages in e.message_dict.items():
                errors.setdefault(name, []).extend(messages)
        finally:
            if unique_field:
                setattr(instance, unique_field, held)
        return errors


def plan(municipality, file_name: str, content: bytes, mapping: Mapping | None = None, on: date | None = None) -> Plan:
    mapping = mapping or Mapping()
    on = on or today()
    header, body = read_table(file_name, content)
    result = Plan(file_name, hashlib.sha256(content).hexdigest(), rows=len(body))
    where = {}
    for column in COLUMNS:
        source = mapping.columns.get(column, column)
        if source in header:
            where[column] = header.index(source)
    missing = [mapping.columns.get(c, c) for c in REQUIRED if c not in where]
    if missing:
        raise RollError(f"{file_name} has no column {' or '.join(repr(m) for m in missing)}; its columns are {header}")
    existing = _Existing(municipality)
    defaults = {**DEFAULTS, **mapping.defaults}
    seen_keys = set()
    people: dict = {}
    animals: dict = {}
    chips: dict = {}
    certificates: dict = {}
    licenses: set = set()
    expiry_of: dict = {}
    m = municipality.pk
    used_people, used_animals = set(), set()
    sorted_columns = sorted(set(COLUMNS))
    of_record = {
        r: [(c, name) for c, (rr, name) in COLUMNS.items() if rr == r]
        for r in ("person", "animal", "vaccination", "license")
    }
    make_person, make_animal = Maker(Person), Maker(Animal)
    make_vaccination, make_license = Maker(RabiesVaccination), Maker(License)
    copied = {"owner_name", "owner_address", "animal_name", "species", "sex", "altered", "breed", "color"}
    person_check = _Validator(Person, {"municipality"}, {n for _, n in of_record["person"]})
    animal_check = _Validator(Animal, {"municipality", "premises"}, {n for _, n in of_record["animal"]})
    vaccination_check = _Validator(
        RabiesVaccination,
        {"municipality", "animal", "voided_at", "void_reason"},
        copied | {n for _, n in of_record["vaccination"]},
    )
    license_check = _Validator(License, LICENSE_NOT_IN_ROLL, copied | {n for _, n in of_record["license"]})

    for line, cells in body:
        raw = {c: (cells[i] if i < len(cells) else "") for c, i in where.items()}
        for column, value in raw.items():
            if column in mapping.values and value in mapping.values[column]:
                raw[column] = str(mapping.values[column][value])
        for column, value in defaults.items():
            if not raw.get(column):
                raw[column] = str(value)
        key = hashlib.sha256("\x1f".join(f"{c}={raw[c]}" for c in sorted_columns if c in raw).encode()).hexdigest()
        if key in existing.keys:
            result.already += 1
            continue
        if key in seen_keys:
            result.duplicates.append(line)
            continue
        seen_keys.add(key)
        values, problems = {}, []
        for column, value in raw.items():
            values[column], rule = _convert(column, value, mapping)
            if rule:
                problems.append(Problem(line, mapping.columns.get(column, column), value, rule))
        if problems:
            result.problems += problems
            result.invalid_lines.add(line)
            continue

        def fields(record, values=values):
            return {name: values[c] for c, name in of_record[record] if c in values}

        def report(errors, record, line=line, raw=raw, problems=problems):
            for name, messages in errors.items():
                column = FIELD_OF.get((record, name), name)
                shown = mapping.columns.get(column, column)
                for message in messages:
                    problems.append(Problem(line, shown, raw.get(column, ""), message))

        # The owner: same name and address, normalised.
        p = fields("person")
        owner_key = (normalise(p.get("name") or ""), normalise(p.get("street") or ""))
        person = existing.people.get(owner_key) or people.get(owner_key)
        if person is None:
            person = make_person(municipality_id=m, **{k: v if v is not None else "" for k, v in p.items()})
            report(person_check.errors(person), "person")
        # The animal: same microchip, or the same owner, name and species.
        a = fields("animal")
        chip = a.get("microchip") or ""
        person_ref = person if isinstance(person, Person) else person
        animal_key = (
            person_ref if isinstance(person_ref, int) else id(person_ref),
            normalise(a["name"] or ""),
            a.get("species"),
        )
        animal = (existing.chips.get(chip) or chips.get(chip)) if chip else None
        if animal is None:
            animal = (existing.animals.get(animal_key) if isinstance(person_ref, int) else None) or animals.get(
                animal_key
            )
        if animal is None:
            animal = make_animal(municipality_id=m, **{k: v for k, v in a.items() if v is not None})
            # Uniqueness of the microchip is matched above, in bulk; the model checks the rest.
            report(animal_check.errors(animal, "microchip"), "animal")
        animal_pk = animal if isinstance(animal, int) else None
        born = existing.births.get(animal_pk) if animal_pk else animal.birth_date
        # The rabies certificate, unless already recorded.
        vaccination = None
        v = fields("vaccination")
        serial = v.get("certificate_serial")
        if serial:
            holder = existing.certificates.get(serial, certificates.get(serial))
            if holder is None:
                vaccination = make_vaccination(
                    municipality_id=m,
                    owner_name=p.get("name") or "",
                    owner_address=", ".join(
                        x for x in (p.get("street"), p.get("city"), p.get("state"), p.get("postal_code")) if x
                    ),
                    animal_name=a.get("name") or "",
                    sex=a.get("sex") or "",
                    altered=bool(a.get("altered")),
                    breed=a.get("breed") or "",
                    color=a.get("color") or "",
                    **{k: val if val is not None else "" for k, val in v.items() if k != "certificate_serial"},
                )
                for name in ("vaccinated_on", "expires_on"):
                    if getattr(vaccination, name) == "":
                        setattr(vaccination, name, None)
                # The model compares the vaccination with the animal's birth date.
                vaccination.animal_id = animal_pk or 0
                RabiesVaccination.animal.field.set_cached_value(
                    vaccination, Animal(pk=animal_pk, birth_date=born) if animal_pk else animal
                )
                vaccination.certificate_serial = serial
                report(vaccination_check.errors(vaccination, "certificate_serial"), "vaccination")
                vaccination.animal_id = None
            elif holder not in (animal_pk, id(animal)):
                problems.append(
                    Problem(
                        line,
                        mapping.columns.get("rabies_certificate", "rabies_certificate"),
                        serial,
                        f"Certificate {serial} is already recorded for another animal.",
                    )
                )
        # A past license, unless the animal already has one for that year.
        license = None
        lic = fields("license")
        year = lic.get("license_year")
        if year:
            animal_ref = animal_pk or id(animal)
            if (animal_ref, year) not in existing.licenses and (animal_ref, year) not in licenses:
                issued_on = lic.get("issued_on")
                if issued_on is None:
                    problems.append(
                        Problem(
                            line,
                            mapping.columns.get("license_issued_on", "license_issued_on"),
                            "",
                            "A past license needs the date it was issued.",
                        )
                    )
                else:
                    if (issued_on, year) not in expiry_of:
                        expiry_of[(issued_on, year)] = law.ask(
                            municipality, "license_expiry", {"issued_on": issued_on, "license_year": year}, on, {}
                        ).value["expires"]
                    license = make_license(
                        municipality_id=m,
                        license_year=year,
                        serial=lic.get("serial") or 0,
                        issued_on=issued_on,
                        expires_on=expiry_of[(issued_on, year)],
                        tax=lic.get("tax") if lic.get("tax") is not None else ZERO,
                        late_fee=lic.get("late_fee") if lic.get("late_fee") is not None else ZERO,
                        owner_name=p.get("name") or "",
                        owner_address=", ".join(
                            x for x in (p.get("street"), p.get("city"), p.get("state"), p.get("postal_code")) if x
                        ),
                        animal_name=a.get("name") or "",
                        species=a.get("species") or "",
                        sex=a.get("sex") or "",
                        altered=bool(a.get("altered")),
                        breed=a.get("breed") or "",
                        color=a.get("color") or "",
                        county=municipality.county,
                    )
                    report(license_check.errors(license), "license")
        if problems:
            # The certificate repeats the animal's sex, breed and color: one line per reason.
            result.problems += list({(p.column, p.value, p.rule): p for p in problems}.values())
            result.invalid_lines.add(line)
            continue
        # The row is valid: register what it adds, so later rows match it.
        if isinstance(person, Person) and owner_key not in people:
            people[owner_key] = person
        if isinstance(animal, Animal):
            animals[animal_key] = animal
            if chip:
                chips[chip] = animal
        if vaccination is not None:
            certificates[serial] = animal_pk or id(animal)
        if license is not None:
            licenses.add((animal_pk or id(animal), year))
        for ref, used, counter in ((person, used_people, "owners"), (animal, used_animals, "animals")):
            token = ref if isinstance(ref, int) else id(ref)
            if token not in used:
                used.add(token)
                name = f"{counter}_{'matched' if isinstance(ref, int) else 'new'}"
                setattr(result, name, getattr(result, name) + 1)
        result.vaccinations_new += vaccination is not None
        result.licenses_new += license is not None
        result.todo.append(RowPlan(line, key, person, animal, vaccination, license))
    return result
