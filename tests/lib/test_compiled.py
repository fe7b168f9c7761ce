"""lib/compiled.py: a query compiled once answers as the ORM does, for each value it is given."""

from datetime import date

from django.db.models import Q
from django.test import TestCase

from dogtag.lib.compiled import DATE_MARKERS, INT_MARKERS, STR_MARKERS, Compiled, instance, model_columns
from dogtag.registry.models import Animal, Ownership
from tests.base import Fixtures


def owned_on(municipality, name, on):
    return (
        Ownership.objects.current(on)
        .filter(Q(animal__name=name) | Q(animal__name__startswith="zz"), municipality_id=municipality)
        .values_list("animal__name", "started_on", "ended_on", "animal__altered")
    )


OWNED_ON = Compiled(owned_on, municipality=INT_MARKERS[0], name=STR_MARKERS[0], on=DATE_MARKERS[0])
ANIMAL = Compiled(lambda pk: Animal.objects.filter(pk=pk).values_list(*model_columns(Animal)), pk=INT_MARKERS[0])


class CompiledTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        Fixtures.build(cls)

    def test_rows_are_the_orms_for_each_value(self):
        for municipality, name, on in [
            (self.benton.pk, "Rex", date(2026, 5, 20)),
            (self.benton.pk, "Rex", date(2024, 4, 30)),  # before it was acquired
            (self.webster.pk, "Rex", date(2026, 5, 20)),
            (self.benton.pk, "Nobody", date(2026, 5, 20)),
        ]:
            with self.subTest(municipality=municipality, name=name, on=on):
                self.assertEqual(
                    [tuple(r) for r in OWNED_ON.rows(municipality=municipality, name=name, on=on)],
                    list(owned_on(municipality, name, on)),
                )
        self.assertEqual(len(OWNED_ON.rows(municipality=self.benton.pk, name="Rex", on=date(2026, 5, 20))), 1)

    def test_an_instance_is_the_orms(self):
        rex = instance(Animal, ANIMAL.rows(pk=self.dog.pk)[0])
        orm = Animal.objects.get(pk=self.dog.pk)
        self.assertEqual(
            [getattr(rex, f.attname) for f in Animal._meta.concrete_fields],
            [getattr(orm, f.attname) for f in Animal._meta.concrete_fields],
        )
        self.assertFalse(rex._state.adding)
        self.assertEqual(rex.get_sex_display(), "Male")

    def test_an_integer_no_column_holds_finds_nothing(self):
        self.assertEqual(ANIMAL.rows(pk=2**70), [])
        self.assertEqual(ANIMAL.rows(pk=-(2**70)), [])

    def test_a_marker_the_query_does_not_use_is_refused(self):
        unused = Compiled(lambda pk, name: Animal.objects.filter(pk=pk).values_list("name"), pk=1, name="x")
        with self.assertRaisesMessage(ValueError, "does not use the markers ['name']"):
            unused.rows(pk=self.dog.pk, name="Rex")
