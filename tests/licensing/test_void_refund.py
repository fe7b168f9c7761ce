"""A voided license's money no longer counts as received: handed back as a refund (in the close
of the day it is paid out) or, recorded in error, voided with the license."""

from datetime import date
from decimal import Decimal

from django.urls import reverse

from dogtag.audit.models import AuditEvent
from dogtag.licensing import actions
from dogtag.licensing.models import Payment, Refund
from tests.base import BaseTestCase, on
from tests.licensing.base import benton_license

DAY, LATER = date(2026, 2, 10), date(2026, 2, 12)


class VoidRefundTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(DAY):
            cls.fee, cls.license = benton_license(cls)  # $10 cash on February 10

    def report(self, name, **params):
        self.login(self.clerk)
        return self.client.get(reverse(f"report-{name}", args=["benton"]), params).context["report"]

    def revenue(self):
        self.login(self.clerk)
        return self.client.get(reverse("dashboard", args=["benton"])).context["data"]["revenue"].totals

    @on(DAY)
    def test_a_void_without_refund_takes_the_payment_out_of_the_close_and_the_revenue(self):
        actions.void_license(self.license, acting_user=self.clerk, reason="entered twice")
        payment = Payment.objects.get()
        self.assertIsNotNone(payment.voided_at)
        self.assertIn("License 1001 voided: entered twice", payment.void_reason)
        close = self.report("day-close", day="2026-02-10")
        self.assertEqual(close.tables[0].rows, [])
        self.assertEqual(close.tables[1].rows, [])
        self.assertEqual(self.report("payments", start="2026-02-01", end="2026-02-28").tables[0].totals[2], 0)
        self.assertEqual(self.revenue(), ["Total", Decimal("0.00"), Decimal("0.00")])
        self.assertTrue(AuditEvent.objects.filter(action="payment.void").exists())

    @on(LATER)
    def test_a_refund_is_in_the_close_of_the_day_it_is_paid_out_and_nets_the_revenue(self):
        actions.void_license(
            self.license, acting_user=self.clerk, reason="wrong dog", refund={"method": "cash", "amount": "10.00"}
        )
        refund = Refund.objects.get()
        self.assertEqual((refund.amount, refund.method, refund.license), (Decimal("10.00"), "cash", self.license))
        self.assertIsNone(Payment.objects.get().voided_at)  # the money did come in on the 10th
        first = self.report("day-close", day="2026-02-10")
        self.assertEqual(first.tables[0].rows, [["Cash", 1, Decimal("10.00")]])
        later = self.report("day-close", day="2026-02-12")
        self.assertEqual(later.tables[2].rows[0][1:], ["Cash", "", "Pat Owner", 1001, Decimal("10.00"), "alice"])
        self.assertIn("Received $0.00, refunded $10.00: net $-10.00.", later.notes)
        month = self.report("payments", start="2026-02-01", end="2026-02-28")
        self.assertIn("Received $10.00, refunded $10.00: net $0.00.", month.notes)
        self.assertEqual(self.revenue()[2], Decimal("0.00"))
        self.assertEqual(AuditEvent.objects.filter(action="payment.refund").count(), 1)

    @on(LATER)
    def test_a_refund_above_what_was_paid_is_refused_and_nothing_changes(self):
        with self.assertRaisesMessage(Exception, "$12.00 is more than the $10.00 paid"):
            actions.void_license(
                self.license, acting_user=self.clerk, reason="x", refund={"method": "check", "amount": "12.00",
                                                                          "check_number": "7"},
            )  # fmt: skip
        self.license.refresh_from_db()
        self.assertIsNone(self.license.voided_at)
        self.assertFalse(Refund.objects.exists())

    @on(LATER)
    def test_the_clerk_voids_with_a_check_refund_from_the_license_page(self):
        self.login(self.clerk)
        url = reverse("license-void", args=[self.license.pk])
        page = self.client.get(url)
        self.assertContains(page, "Amount refunded")
        r = self.client.post(url, {"reason": "moved away", "refund_method": "check", "refund_amount": "10.00"})
        self.assertContains(r, "Enter the number of the refund check.")
        r = self.client.post(
            url,
            {"reason": "moved away", "refund_method": "check", "refund_amount": "10.00", "refund_check_number": "88"},
        )
        self.assertRedirects(r, reverse("license", args=[self.license.pk]))
        self.assertEqual(Refund.objects.get().check_number, "88")
        self.assertContains(self.client.get(reverse("license", args=[self.license.pk])), "$10.00 refunded by check")

    @on(LATER)
    def test_a_refused_form_lists_each_problem_at_the_top_linked_to_its_field(self):
        self.login(self.clerk)
        r = self.client.post(reverse("license-void", args=[self.license.pk]), {"reason": "", "refund_method": "cash"})
        body = r.content.decode()
        summary = body.split('<div class="error-summary"')[1].split("</div>")[0]
        self.assertIn('href="#id_reason"', summary)
        self.assertLess(body.index("error-summary"), body.index('<form class="record"'))

    @on(LATER)
    def test_the_receipt_of_a_voided_refunded_license_says_so(self):
        from tests.enforcement.test_complaints import pdf_text

        actions.void_license(
            self.license, acting_user=self.clerk, reason="wrong dog", refund={"method": "cash", "amount": "10.00"}
        )
        self.login(self.clerk)
        text = pdf_text(self.client.get(reverse("license-receipt", args=[self.license.pk])))
        self.assertIn("VOID", text)
        self.assertIn("voided February 12, 2026: wrong dog", text)
        self.assertIn("Refunded $10.00 cash on February 12, 2026", text)
