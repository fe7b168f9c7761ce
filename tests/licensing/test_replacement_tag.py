"""A replacement for a lost tag: free while the fee schedule sets no charge (no ordinance of the
five sets one); once the board sets one by resolution, the clerk takes it at the counter and
prints its receipt, and the day's close counts it."""

import io
from datetime import date
from decimal import Decimal

from django.urls import reverse
from pypdf import PdfReader

from dogtag.licensing import actions
from dogtag.licensing.models import Payment, Tag
from tests.base import BaseTestCase, on
from tests.licensing.base import benton_license

DAY = date(2026, 3, 2)


@on(DAY)
class ReplacementTagTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(DAY):
            cls.fee, cls.license = benton_license(cls)

    def replace(self, **data):
        self.login(self.clerk)
        return self.client.post(reverse("license-replace-tag", args=[self.license.pk]), data)

    def set_charge(self, amount="3.00"):
        return actions.set_fee(acting_user=self.clerk, municipality=self.benton, key="replacement_tag",
                               amount=Decimal(amount), effective_on=date(2026, 1, 1),
                               authority="Village Board Res. 2026-4")  # fmt: skip

    def test_without_a_charge_on_the_fee_schedule_the_tag_is_replaced_free(self):
        self.login(self.clerk)
        r = self.client.get(reverse("license-replace-tag", args=[self.license.pk]))
        self.assertContains(r, "the tag is replaced free of charge")
        self.assertNotContains(r, 'name="amount"')
        r = self.replace()
        self.assertRedirects(r, reverse("license", args=[self.license.pk]))
        new = self.license.tags.get(status=Tag.Status.ISSUED)
        self.assertIsNone(new.replacement_payment)
        self.assertEqual(Payment.objects.count(), 1)  # the license's own

    def test_the_charge_the_board_set_is_taken_with_a_receipt_and_counted_in_the_close(self):
        self.set_charge("3.00")
        self.login(self.clerk)
        r = self.client.get(reverse("license-replace-tag", args=[self.license.pk]))
        self.assertContains(r, "A replacement tag costs <strong>$3.00</strong> (set by Village Board Res. 2026-4")
        # Refused, naming the field, when short; nothing changes.
        r = self.replace(method="cash", amount="1.00")
        self.assertContains(r, "$1.00 received but $3.00 is due; a replacement tag is issued only on payment")
        self.assertEqual(self.license.tags.get().status, Tag.Status.ISSUED)
        r = self.replace(method="cash", amount="3.00")
        self.assertRedirects(r, reverse("license", args=[self.license.pk]))
        new = self.license.tags.get(status=Tag.Status.ISSUED)
        paid = new.replacement_payment
        self.assertEqual((paid.amount, paid.payer, paid.receipt_serial), (Decimal("3.00"), self.owner, 2))
        page = self.client.get(reverse("license", args=[self.license.pk]))
        self.assertContains(page, f"$3.00, receipt no. {paid.receipt_number}")
        pdf = self.client.get(reverse("tag-receipt", args=[new.pk]))
        text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
        self.assertIn(f"No. {paid.receipt_number}", text)
        self.assertIn(f"Replacement tag {new.serial} for 2026 license {self.license.serial}", text)
        self.assertIn("$3.00", text)
        # The lost tag has no charge, so no receipt.
        lost = self.license.tags.get(status=Tag.Status.LOST)
        self.assertEqual(self.client.get(reverse("tag-receipt", args=[lost.pk])).status_code, 404)
        close = self.client.get("/m/benton/reports/payments/", {"start": DAY.isoformat(), "end": DAY.isoformat()})
        self.assertContains(close, "Received $13.00")

    def test_the_api_takes_the_charge_too(self):
        self.set_charge("3.00")
        with self.assertRaisesMessage(Exception, "$3.00 is due; record the payment."):
            actions.replace_tag(self.license, acting_user=self.clerk)
        tag = actions.replace_tag(self.license, acting_user=self.clerk, payment={"method": "cash", "amount": "3.00"})
        self.assertEqual(tag.replacement_payment.amount, Decimal("3.00"))

    def test_the_charge_is_on_the_fee_schedule_page_apart_from_the_ordinances_amounts(self):
        self.set_charge("3.00")
        self.login(self.clerk)
        r = self.client.get(reverse("fees", args=["benton"]))
        self.assertContains(r, "Charges set by resolution")
        self.assertContains(r, "Village Board Res. 2026-4")
