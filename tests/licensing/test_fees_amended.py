"""The fee schedule page notes an adopted amendment that sets a figure the pack left to the
schedule (Benton's license tax, "as prescribed in § 173-1"): from its effective date the schedule's
entries for it no longer apply. A draft or a voided amendment is not noted."""

from datetime import date
from decimal import Decimal

from dogtag.registry import rulings
from dogtag.registry.actions import adopt_amendment, draft_amendment, void_amendment
from tests.base import BaseTestCase, on
from tests.licensing.base import BENTON_FEES, set_fees

TAX_WORDS = (
    "Section 173-1 is amended to read: the license tax for a spayed female or neutered male dog "
    "shall be $12.00 and for an unspayed or unneutered dog $22.00."
)


@on(date(2027, 3, 2))
class FeesPageNotesAmendmentsTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        set_fees(cls.clerk, cls.benton, BENTON_FEES)
        with on(date(2026, 12, 1)):
            cls.amendment = draft_amendment(
                cls.benton,
                acting_user=cls.clerk,
                kind="license_tax",
                title="Raise the license tax",
                section="§ 173-1",
                words=TAX_WORDS,
                effective_on=date(2027, 3, 1),
                figures={"altered": Decimal("12.00"), "unaltered": Decimal("22.00")},
            )

    def setUp(self):
        rulings.forget(self.benton.pk)
        self.login(self.clerk)

    def test_a_draft_is_not_noted(self):
        r = self.client.get("/m/benton/fees/")
        self.assertEqual(r.status_code, 200)
        self.assertNotContains(r, "Set by an adopted amendment")

    def test_an_adopted_amendment_is_noted_with_its_resolution_and_the_entries_it_overrides(self):
        with on(date(2027, 2, 11)):
            adopt_amendment(self.amendment, acting_user=self.clerk, resolution="2027-04", voted_on=date(2027, 2, 10))
        r = self.client.get("/m/benton/fees/")
        self.assertContains(r, "Set by an adopted amendment")
        self.assertContains(r, "Board resolution 2027-04 of February 10, 2027 amends § 173-1")
        self.assertContains(r, "altered $12.00, unaltered $22.00 from March 1, 2027")
        body = " ".join(r.content.decode().split())
        self.assertIn(
            "takes the place of the fee schedule's license tax — altered, license tax — unaltered: the schedule's "
            "entries for them apply to earlier days only",
            body,
        )
        # voided, the note goes
        with on(date(2027, 3, 2)):
            void_amendment(self.amendment, acting_user=self.clerk, reason="recorded against the wrong ordinance")
        rulings.forget(self.benton.pk)
        self.assertNotContains(self.client.get("/m/benton/fees/"), "Set by an adopted amendment")
