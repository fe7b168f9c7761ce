"""The fee schedule checks an amount against the law as ruled on the day it takes effect (issue 25
§3): Webster § 98-4's late fee 'as established by the Village Board' is held to s. 174.05(5)'s $5
on Dogtag's reading; once the other reading is ruled, the Board's figure is taken from the ruling's
effective date, and not before."""

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError

from dogtag.accounts.models import Role
from dogtag.licensing.actions import set_fee
from dogtag.registry import rulings
from dogtag.registry.actions import record_ruling
from tests.base import BaseTestCase, make_user, on


class LateFeeRulingTests(BaseTestCase):
    def setUp(self):
        rulings.forget(self.webster.pk)

    def set_late_fee(self, effective_on):
        with on(date(2026, 6, 25)):
            return set_fee(
                acting_user=self.webster_clerk,
                municipality=self.webster,
                key="late_fee",
                amount=Decimal("10.00"),
                effective_on=effective_on,
                authority="Res. 2026-4",
            )

    def refusal(self, effective_on) -> str:
        with self.assertRaises(ValidationError) as refused:
            self.set_late_fee(effective_on)
        return " ".join(refused.exception.message_dict["amount"])

    def test_the_boards_late_fee_is_taken_from_the_rulings_effective_date_and_not_before(self):
        self.assertIn(
            "the state fixes a late fee of $5.00, not $10.00 (Wis. Stats. s. 174.05(5))", self.refusal(date(2026, 7, 1))
        )
        admin = make_user("wanda", (self.webster, Role.ADMINISTRATOR))
        with on(date(2026, 6, 25)):
            record_ruling(
                self.webster,
                acting_user=admin,
                reading="licensing.late_fee",
                adopted="other",
                instrument="board_resolution",
                attorney="Village Attorney",
                number="R-2026-12",
                ruled_on=date(2026, 6, 20),
                effective_on=date(2026, 7, 1),
                note="",
            )
        self.webster.refresh_from_db()
        self.assertIn("not $10.00", self.refusal(date(2026, 6, 30)))
        entry = self.set_late_fee(date(2026, 7, 1))
        self.assertEqual(
            (entry.key, entry.amount, entry.effective_on), ("late_fee", Decimal("10.00"), date(2026, 7, 1))
        )

    def test_dogtag_s_reading_ruled_keeps_the_late_fee_at_the_states(self):
        admin = make_user("wanda", (self.webster, Role.ADMINISTRATOR))
        with on(date(2026, 6, 25)):
            record_ruling(
                self.webster,
                acting_user=admin,
                reading="licensing.late_fee",
                adopted="choice",
                instrument="attorney_opinion",
                attorney="Jane Roe",
                number="OP-2026-3",
                ruled_on=date(2026, 6, 20),
                effective_on=date(2026, 7, 1),
                note="",
            )
        self.webster.refresh_from_db()
        self.assertIn("not $10.00", self.refusal(date(2026, 7, 1)))
