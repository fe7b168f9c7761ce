"""Every receipt has a number unique in its municipality and year, and the full name of the
clerk who took the money; it prints on half a sheet."""

from datetime import date
from decimal import Decimal

from django.urls import reverse
from pypdf import PdfReader

from dogtag.licensing import actions
from dogtag.licensing.models import Payment
from tests.base import BaseTestCase, on
from tests.licensing.base import benton_license


class ReceiptTests(BaseTestCase):
    def pay(self, clerk, municipality, amount="5.00"):
        return actions.record_payment(acting_user=clerk, municipality=municipality, payer=None, due=Decimal(amount),
                                      payment={"method": "cash", "amount": amount})  # fmt: skip

    def test_numbers_run_per_municipality_and_start_again_each_year(self):
        from django.db import transaction

        with transaction.atomic(), on(date(2026, 12, 31)):
            a, b = self.pay(self.clerk, self.benton), self.pay(self.clerk, self.benton)
            w = self.pay(self.webster_clerk, self.webster)
        with transaction.atomic(), on(date(2027, 1, 2)):
            c = self.pay(self.clerk, self.benton)
        self.assertEqual([p.receipt_number for p in (a, b, w, c)], ["2026-0001", "2026-0002", "2026-0001", "2027-0001"])
        self.assertEqual(Payment.objects.filter(receipt_year=2026, municipality=self.benton).count(), 2)

    def test_the_receipt_names_its_number_and_the_clerk_on_half_a_page(self):
        self.clerk.first_name, self.clerk.last_name = "Alice", "Abernathy"
        self.clerk.save()
        with on(date(2026, 2, 10)):
            _, license = benton_license(self)
        self.login(self.clerk)
        r = self.client.get(reverse("license-receipt", args=[license.pk]))
        pdf = PdfReader(__import__("io").BytesIO(r.content))
        text = pdf.pages[0].extract_text()
        self.assertIn("No. 2026-0001", text)
        self.assertIn("Alice Abernathy", text)
        self.assertEqual(len(pdf.pages), 1)
        box = pdf.pages[0].mediabox
        self.assertEqual((round(float(box.width)), round(float(box.height))), (612, 396))  # 8.5 x 5.5 in


class CertificateTests(BaseTestCase):
    def test_the_certificate_names_each_section_it_rests_on_once(self):
        with on(date(2026, 2, 10)):
            _, license = benton_license(self)
        cited = [c["section"] for c in license.citations]
        self.assertGreater(len(cited), len(set(cited)), "the license's figures cite one section twice")
        self.login(self.clerk)
        r = self.client.get(reverse("license-certificate", args=[license.pk]))
        (page,) = PdfReader(__import__("io").BytesIO(r.content)).pages
        lines = page.extract_text().splitlines()
        self.assertIn("CERTIFICATEOFLICENSE", "".join(lines).replace(" ", "").upper())
        (cite,) = [line for line in lines if cited[0] in line]  # the line of sections, at the foot
        parts = cite.split("; ")
        self.assertEqual(len(parts), len(set(parts)), cite)
        for section in cited:
            self.assertTrue(any(part.endswith(section) for part in parts), section)
