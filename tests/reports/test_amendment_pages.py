"""A clerk drafts an amendment on its page, previews it (the worker runs inline here), exports
the Board packet (PDF) and the CSV, adopts it and voids another; bad input is a field error."""

from datetime import date
from decimal import Decimal

from django.urls import reverse

from dogtag.licensing.actions.fees import set_fee
from dogtag.registry.models import Amendment
from tests.base import BaseTestCase, on, text
from tests.licensing.bulk import licensed_dogs

WORDS = "The license tax shall be $12.00 for a spayed or neutered dog and $22.00 for any other dog."


class AmendmentPages(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        for key, amount in (("license_tax.altered", "10.00"), ("license_tax.unaltered", "20.00"), ("late_fee", "5.00")):
            set_fee(
                acting_user=cls.clerk,
                municipality=cls.benton,
                key=key,
                amount=Decimal(amount),
                effective_on=date(2020, 1, 1),
                authority="Resolution 2019-12",
            )
        licensed_dogs(cls.benton, cls.clerk, 30, year=2027)

    def setUp(self):
        self.login(self.clerk)

    def draft(self, **changes):
        data = {
            "kind": "license_tax",
            "title": "Raise the license tax",
            "section": "§ 173-1",
            "words": WORDS,
            "effective_on": "2027-03-01",
            "altered": "12.00",
            "unaltered": "22.00",
            **changes,
        }
        with on(date(2026, 12, 1)):
            return self.client.post(reverse("amendment-new", args=["benton"]), data)

    def test_draft_preview_export_and_adopt(self):
        response = self.draft()
        amendment = Amendment.objects.get()
        self.assertRedirects(response, reverse("amendment", args=[amendment.pk]))
        page = self.client.get(reverse("amendment", args=[amendment.pk]))
        self.assertContains(page, "$12.00")
        with on(date(2026, 12, 1)), self.captureOnCommitCallbacks(execute=True):
            response = self.client.post(reverse("amendment-preview", args=[amendment.pk]), {"year": "2027"})
        self.assertEqual(response.status_code, 302)
        page = text(self.client.get(reverse("amendment", args=[amendment.pk])))
        for words in (
            "Revenue by category",
            "Paid to the county",
            "Owners who would pay more or less",
            "Affected licenses",
            "30 licenses of 2027",
        ):
            self.assertIn(words, page)
        csv = self.client.get(reverse("amendment", args=[amendment.pk]), {"format": "csv"})
        self.assertEqual(csv["Content-Type"], "text/csv; charset=utf-8")
        body = b"".join(csv.streaming_content).decode()
        self.assertIn("Revenue by category", body)
        self.assertIn("Owner 00001", body)
        pdf = self.client.get(reverse("amendment", args=[amendment.pk]), {"format": "pdf"})
        self.assertEqual(pdf["Content-Type"], "application/pdf")
        self.assertTrue(pdf.content.startswith(b"%PDF"))
        with on(date(2027, 2, 11)):
            response = self.client.post(
                reverse("amendment-adopt", args=[amendment.pk]), {"resolution": "2027-04", "voted_on": "2027-02-10"}
            )
        self.assertEqual(response.status_code, 302)
        self.assertContains(self.client.get(reverse("amendment", args=[amendment.pk])), "Board resolution 2027-04")

    def test_a_figure_outside_the_states_limits_is_a_field_error_naming_the_section(self):
        response = self.draft(altered="22.00", unaltered="12.00")
        self.assertEqual(response.status_code, 200)
        self.assertContains(response, "s. 174.05(3)")
        self.assertFalse(Amendment.objects.exists())

    def test_a_draft_is_voided_not_deleted(self):
        self.draft()
        amendment = Amendment.objects.get()
        with on(date(2026, 12, 2)):
            response = self.client.post(reverse("amendment-void", args=[amendment.pk]), {"reason": "not adopted"})
        self.assertEqual(response.status_code, 302)
        self.assertContains(self.client.get(reverse("amendments", args=["benton"])), "Voided")
