"""Messages name the field by its label and the rule by its section, never a name Dogtag keeps
inside (`isolation_starts_on`, `late_fee`) or every section the engine read (issue 29, "Messages
that leak internals")."""

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError

from dogtag.enforcement.models import Case
from dogtag.licensing import actions as licensing
from dogtag.licensing.actions.tags import take_tag
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase


class PlainMessageTests(EnforcementTestCase):
    def test_an_isolation_before_the_bite_is_refused_in_words_with_the_section(self):
        _, _, dog = self.owner_and_dog("webster", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 11, 21)):
            body = {"animal": dog.pk, "victim_name": "Vic Tim", "bitten_on": "2026-11-21", "place": "the sidewalk"}
            self.assert_posted(self.post("bite-new", "webster", body))
            bite = Case.objects.filter(kind="bite").latest("pk").bite
            r = self.post(
                "bite-quarantine",
                bite.pk,
                {"place": "isolation_facility", "facility": "Shelter", "isolation_starts_on": "2026-11-20"},
            )
            body = self.refused(
                r, "Isolation starts on November 20, 2026, before the bite on November 21, 2026", "§ 98-5"
            )
            self.assertNotIn("isolation_starts_on 2026", body)

    def test_a_second_amount_on_the_same_day_names_the_fee_in_words(self):
        clerk = self.clerks["webster"]
        fee = {"acting_user": clerk, "municipality": self.places["webster"], "key": "late_fee",
               "amount": Decimal("5.00"), "effective_on": date(2026, 1, 1), "authority": "Res. 1"}  # fmt: skip
        licensing.set_fee(**fee)
        with self.assertRaises(ValidationError) as refused:
            licensing.set_fee(**fee)
        message = refused.exception.message_dict["effective_on"][0]
        self.assertIn("The late fee already has an amount from January 1, 2026", message)
        self.assertNotIn("late_fee", message)

    def test_a_tag_in_no_lot_says_which_lot_is_missing(self):
        with self.assertRaises(ValidationError) as refused:
            take_tag(self.places["webster"], 2026, serial=77)
        self.assertIn("no 2026 lot received from the county clerk includes it", str(refused.exception))
