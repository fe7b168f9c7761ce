"""The import checks a batch column by column and remembers each model clean()'s outcome by the
values it reads; these tests keep that list true to the models and the column rules to the
fields' own (no database needed)."""

from datetime import date
from decimal import Decimal

from django.test import SimpleTestCase

from dogtag.imports.bulk import Maker
from dogtag.imports.columns import Column
from dogtag.imports.rolls import READ_BY_CLEAN
from dogtag.registry.models import Animal, RabiesVaccination


class Reading:
    """A stand-in for a model instance that notes each attribute its clean() reads."""

    def __init__(self, instance):
        object.__setattr__(self, "_instance", instance)
        object.__setattr__(self, "read", set())

    def __getattr__(self, name):
        self.read.add(name)
        return getattr(self._instance, name)


class ReadByCleanTests(SimpleTestCase):
    def test_the_remembered_outcome_is_keyed_by_every_field_clean_reads(self):
        animal = Maker(Animal)(
            municipality_id=1, name="Bo", sex="male", species="hen", birth_date=date(2030, 1, 1),
            acquired_on=date(2029, 1, 1), brought_in_on=date(2029, 1, 1), altered=True, altered_evidence="",
            microchip="",
        )  # fmt: skip
        vaccination = Maker(RabiesVaccination)(
            municipality_id=1, vaccinated_on=date(2030, 1, 1), expires_on=date(2029, 1, 1), certificate_serial=""
        )
        vaccination.animal_id = -1
        RabiesVaccination.animal.field.set_cached_value(vaccination, animal)
        for model, instance, apart in (
            (Animal, animal, {"microchip", "pk", "municipality_id"}),
            (RabiesVaccination, vaccination, {"certificate_serial", "pk", "municipality_id", "animal", "animal_id"}),
        ):
            reading = Reading(instance)
            try:
                model.clean(reading)
            except Exception:  # noqa: BLE001 - the refusals are the point; what was read is the test
                pass
            fields = {f.attname for f in model._meta.concrete_fields} | {"pk", "animal"}
            self.assertLessEqual(reading.read & fields - apart, set(READ_BY_CLEAN[model]), model.__name__)


class ColumnTests(SimpleTestCase):
    def test_an_amount_is_a_positive_number_of_dollars_and_cents(self):
        column = Column("license_tax", "%Y-%m-%d")
        values, problems = column.convert(["10.00", "$1,234.50", "-5.00", "12abc", "1.005", "NaN", "10000000"])
        self.assertEqual(values[:2], [Decimal("10.00"), Decimal("1234.50")])
        self.assertEqual(
            [(i, rule) for i, rule in problems],
            [
                (2, "an amount of $0.00 or more; a negative amount is refused"),
                (3, "an amount in dollars and cents, e.g. 10.00"),
                (4, "an amount with at most 2 decimal places (cents)"),
                (5, "an amount in dollars and cents, e.g. 10.00"),
                (6, "an amount under $10,000,000"),
            ],
        )

    def test_text_is_held_to_the_fields_length_and_is_never_a_formula(self):
        column = Column("owner_name", "%Y-%m-%d")
        _, problems = column.convert(["Ann", "x" * 201, "=1+1", "+1 608 555 0100", "-Rex", "Bo\x1b"])
        self.assertEqual(
            problems,
            [
                (1, "Ensure this value has at most 200 characters (it has 201)."),
                (2, "a value, not a spreadsheet formula (a cell starting with = + - @)"),
                (4, "a value, not a spreadsheet formula (a cell starting with = + - @)"),
                (5, "no control characters (NUL, escape, ...) in text"),
            ],
        )

    def test_a_choice_and_an_email_are_checked_by_the_models_field(self):
        self.assertEqual(Column("sex", "").convert(["MALE", "x"])[1], [(1, "Value 'x' is not a valid choice.")])
        self.assertEqual(
            Column("owner_email", "").convert(["a@b.org", "nope"])[1], [(1, "Enter a valid email address.")]
        )
