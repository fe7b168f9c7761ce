"""A printed document gives the date it exists to give: a notice that would be served without it
is refused with the reason, and a determination or decision printed before it is served gives
the day the law counts from the day it is printed (issue 29, bug 3)."""

from datetime import date

from django.urls import reverse

from dogtag.enforcement.models import Case, Declaration, Impoundment, QuarantineOrder
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase
from tests.enforcement.test_complaints import pdf_text
from tests.enforcement.test_declarations import incident
from tests.enforcement.test_entered_dates import scheduled_hearing


class DocumentDateTests(EnforcementTestCase):
    scheduled_hearing = scheduled_hearing

    def pdf(self, name, pk):
        return self.client.get(reverse(name, args=[pk]))

    def test_the_quarantine_order_gives_the_first_day_of_examination(self):
        _, _, dog = self.owner_and_dog("webster", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 6, 1), hour=14):
            body = {"animal": dog.pk, "victim_name": "Vic Tim", "bitten_on": "2026-06-01", "place": "the sidewalk"}
            self.assert_posted(self.post("bite-new", "webster", body))
            bite = Case.objects.filter(kind="bite").latest("pk").bite
            where = {"place": "isolation_facility", "facility": "Burnett County shelter"}
            self.assert_posted(self.post("bite-quarantine", bite.pk, where))
            order = QuarantineOrder.objects.get(case=bite.case)
            text = pdf_text(self.pdf("quarantine-order-pdf", order.pk))
            self.assertIn("Examination: first day June 1, 2026", text)

    def test_an_impoundment_notice_before_the_notice_is_recorded_is_refused_with_the_reason(self):
        _, _, dog = self.owner_and_dog("webster", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            body = {"animal": dog.pk, "found_at": "Main St", "reason": "at-large", "held_at": "Webster shelter",
                    "officer_saw_or_heard": "on"}  # fmt: skip
            self.assert_posted(self.post("impoundment-new", "webster", body))
            imp = Impoundment.objects.latest("pk")
            r = self.pdf("impoundment-notice-pdf", imp.pk)
            self.assertEqual(r.status_code, 409)
            self.assertContains(r, "last day to claim", status_code=409)
            self.assertContains(r, "§ 98-7", status_code=409)
            notice = {"notice_method": "mail", "notice_on": "2026-03-02"}
            self.assert_posted(self.post("impoundment-notice", imp.pk, notice))
            self.assertIn("Last day to claim March 9, 2026", pdf_text(self.pdf("impoundment-notice-pdf", imp.pk)))

    def test_a_determination_printed_before_service_gives_the_last_day_if_served_that_day(self):
        _, _, dog = self.owner_and_dog("river-hills", "Biter", vaccinated_on=date(2025, 5, 1))
        self.login(self.chief)
        with on(date(2026, 3, 2)):
            body = {"animal": dog.pk, "determined_on": "2026-03-02", "evidence": "bite report"}
            self.assert_posted(
                self.post("declaration-new", "river-hills", {**body, **incident("2026-02-27", "bite_injury")})
            )
            fresh = Declaration.objects.latest("pk")
            text = pdf_text(self.pdf("declaration-determination-pdf", fresh.pk))
            # [c](3): "within 5 business days of service": served Monday March 2, the last day is March 9.
            self.assertIn("Last day to request a hearing If served on March 2, 2026: March 9, 2026", text)

    def test_a_decision_printed_before_it_is_received_gives_the_last_day_to_appeal(self):
        decl = self.scheduled_hearing()
        with on(date(2026, 3, 12)):
            body = {"held_on": "2026-03-12", "outcome": "affirmed", "findings": "bite confirmed"}
            self.assert_posted(self.post("declaration-hearing-decision", decl.pk, body))
            text = pdf_text(self.pdf("declaration-decision-pdf", decl.pk))
            self.assertIn("If received on March 12, 2026,", text)
            self.assertRegex(text, r"If received on March 12, 2026, (March|April) \d+, 2026")
