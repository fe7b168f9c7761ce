"""dogtag/lean.py's CompiledRows: a values_list() query compiled once answers as the ORM does, for each value."""

from django.test import TestCase

from dogtag.lean import CompiledRows
from dogtag.registry.models import Ownership
from tests.base import Fixtures


def owned(municipality, name):
    return Ownership.objects.filter(municipality_id=municipality, animal__name=name).values_list(
        "animal__name", "started_on", "animal__altered", "animal__birth_date"
    )


OWNED = CompiledRows(owned, municipality=2_147_482_001, name="\x00name\x00")


class CompiledRowsTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        Fixtures.build(cls)

    def test_rows_are_the_orms_for_each_value(self):
        for municipality, name in [(self.benton.pk, "Rex"), (self.webster.pk, "Rex"), (self.benton.pk, "Nobody")]:
            with self.subTest(municipality=municipality, name=name):
                self.assertEqual(
                    OWNED.rows("default", municipality=municipality, name=name), list(owned(municipality, name))
                )
        self.assertEqual(len(OWNED.rows("default", municipality=self.benton.pk, name="Rex")), 1)

    def test_a_stand_in_the_query_does_not_take_is_refused(self):
        unused = CompiledRows(
            lambda m, name: Ownership.objects.filter(municipality_id=m).values_list("pk"), m=1, name="x"
        )
        with self.assertRaisesMessage(ValueError, "every stand-in"):
            unused.rows("default", m=self.benton.pk, name="Rex")
