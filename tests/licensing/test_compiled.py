"""lib/compiled.py, as the issue uses it: a query compiled once answers what the queryset answers,
for every call's values (dates included: text on SQLite, dates on PostgreSQL; integers wrapped by
psycopg), and an insert without save() refuses a model that something listens to."""

from datetime import date

from dogtag.accounts.models import ApiToken
from dogtag.lib.compiled import Compiled, insert
from dogtag.licensing.models import FeeScheduleEntry
from dogtag.registry.models import Ownership
from tests.base import BaseTestCase
from tests.licensing.base import BENTON_FEES, set_fees

OWNERS = Compiled(
    lambda animal_id, on: Ownership.objects.current(on).filter(animal_id=animal_id).select_related("person"),
    animal_id=2_147_483_001,
    on=date(1001, 2, 3),
)


class CompiledTests(BaseTestCase):
    def test_it_answers_what_the_queryset_answers_for_each_call(self):
        for day in (date(2024, 4, 30), date(2024, 5, 1), date(2026, 5, 20)):
            expected = [(o.pk, o.person.name) for o in self.dog.current_owners(day)]
            with self.assertNumQueries(1):
                found = [(o.pk, o.person.name) for o in OWNERS.objects(animal_id=self.dog.pk, on=day)]
            self.assertEqual(found, expected, day)
        self.assertEqual(OWNERS.objects(animal_id=self.dog.pk + 1000, on=date(2026, 5, 20)), [])

    def test_values_list_rows_come_back_converted(self):
        set_fees(self.clerk, self.benton, BENTON_FEES)
        fees = Compiled(
            lambda m: FeeScheduleEntry.objects.filter(municipality_id=m).values_list("key", "effective_on", "amount"),
            m=2_147_483_001,
        )
        expected = list(
            FeeScheduleEntry.objects.filter(municipality=self.benton).values_list("key", "effective_on", "amount")
        )
        self.assertEqual(fees.rows(m=self.benton.pk), expected)
        self.assertEqual(len(expected), 3)

    def test_a_stand_in_the_query_does_not_take_is_refused(self):
        unused = Compiled(
            lambda m, year: FeeScheduleEntry.objects.filter(municipality_id=m), m=2_147_483_001, year=2_147_483_002
        )
        with self.assertRaisesMessage(ValueError, "year"):
            unused.rows(m=self.benton.pk, year=2026)

    def test_insert_refuses_a_model_with_save_receivers(self):
        # Saving a token makes the token cache forget it (accounts/tokens.py): insert() would skip that.
        with self.assertRaisesMessage(TypeError, "without save signals"):
            insert(ApiToken(user=self.clerk, name="x"))
