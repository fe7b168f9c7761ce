"""Benton's kennel license (§ 115-3B) through the clerk's pages: the application with every field
§ 115-3B(1) lists, inspection and correction before approval, the siting and space checks, the
ten-dog maximum, the initial and renewal fees from the schedule and the December 31 expiry."""

import io
from datetime import date

from django.urls import reverse
from pypdf import PdfReader

from dogtag.audit.models import AuditEvent
from dogtag.licensing.models import Inspection, KennelLicense, Payment
from dogtag.registry import actions as registry
from tests.base import BaseTestCase, on
from tests.licensing.base import set_fees

KENNEL_FEES = {"kennel_license.initial": "50.00", "kennel_license.renewal": "25.00"}
APPLICATION = {
    "operator_name": "Sam Operator",
    "capacity": "8",
    "description": "Insulated barn with six outdoor runs",
    "use": "business",
    "signed_on": "2026-03-01",
    "license_year": "2026",
    "from_other_structures_ft": "250",
    "from_lot_lines_ft": "20",
    "kennel_sq_ft": "300",
    "privacy_fence": "on",
}


@on(date(2026, 3, 10))
class KennelTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.farm = registry.create_premises(
            acting_user=cls.clerk, municipality=cls.benton, street="400 County Rd K", use="farm"
        )
        cls.kennel_dogs = [cls.add_dog(f"Hound {i}") for i in range(5)]

    @classmethod
    def add_dog(cls, name, born=date(2024, 1, 1)):
        return registry.register_animal(
            acting_user=cls.clerk,
            municipality=cls.benton,
            owner=cls.owner,
            name=name,
            sex="male",
            birth_date=born,
            premises=cls.farm,
        )

    def counts(self):
        return (
            KennelLicense.objects.filter(status="issued").count(),
            KennelLicense.objects.count(),
            Inspection.objects.count(),
            Payment.objects.count(),
            AuditEvent.objects.count(),
        )

    def apply(self, **changes):
        self.login(self.clerk)
        data = {**APPLICATION, "owner": self.owner.pk, "premises": self.farm.pk, **changes}
        r = self.client.post(reverse("kennel-new", args=["benton"]), data)
        return r, KennelLicense.objects.order_by("pk").last()

    def inspect(self, kennel, findings=""):
        return self.client.post(
            reverse("kennel-inspect", args=[kennel.pk]),
            {
                "inspector": "health-officer",
                "inspector_name": "Lee Health",
                "inspected_on": "2026-03-09",
                "findings": findings,
            },
        )

    def approve(self, kennel, **payment):
        before = self.counts()
        r = self.client.post(reverse("kennel", args=[kennel.pk]), {"method": "cash", **payment})
        return r, before == self.counts()

    def test_it_walks_application_inspection_correction_and_approval(self):
        set_fees(self.clerk, self.benton, KENNEL_FEES)
        r, kennel = self.apply()
        self.assertRedirects(r, reverse("kennel", args=[kennel.pk]))
        self.assertEqual(
            (kennel.owner, kennel.operator_name, kennel.premises, kennel.capacity, kennel.use, kennel.signed_on),
            (self.owner, "Sam Operator", self.farm, 8, "business", date(2026, 3, 1)),
        )
        self.assertEqual((kennel.status, kennel.renewal), ("applied", False))
        r = self.client.get(reverse("kennel", args=[kennel.pk]))
        self.assertContains(r, "No inspection is recorded")
        self.assertContains(r, "(§ 115-3B(2))")
        r, unchanged = self.approve(kennel, amount="50.00")
        self.assertTrue(unchanged)

        self.inspect(kennel, findings="Drainage of run 3 pools waste")
        inspection = kennel.inspections.get()
        r, unchanged = self.approve(kennel, amount="50.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "County Health Officer Lee Health on March 9, 2026 are not recorded")
        self.assertContains(r, "must be corrected before approval (§ 115-3B(2))")

        r = self.client.post(reverse("kennel-inspection-correct", args=[inspection.pk]), {"corrected_on": "2026-03-10"})
        self.assertRedirects(r, reverse("kennel", args=[kennel.pk]))
        r = self.client.get(reverse("kennel", args=[kennel.pk]))
        self.assertContains(r, "$50.00")
        self.assertContains(r, "December 31, 2026")
        r, unchanged = self.approve(kennel, amount="40.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "$40.00 received but $50.00 is due")
        r, unchanged = self.approve(kennel, amount="50.00")
        self.assertFalse(unchanged)
        kennel.refresh_from_db()
        self.assertEqual((kennel.status, kennel.fee, kennel.renewal), ("issued", 50, False))
        self.assertEqual(
            (kennel.issued_on, kennel.expires_on, kennel.dogs_kept), (date(2026, 3, 10), date(2026, 12, 31), 5)
        )
        self.assertEqual(kennel.payment.amount, 50)
        self.assertIn("§ 115-3B(1)", [c["section"] for c in kennel.citations])
        self.assertTrue(AuditEvent.objects.filter(action="kennel.approve", object_id=str(kennel.pk)).exists())

        pdf = self.client.get(reverse("kennel-certificate", args=[kennel.pk]))
        text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
        for expected in (
            "2026 Kennel License",
            "Pat Owner",
            "400 County Rd K",
            "Sam Operator",
            "$50.00 (initial license)",
            "December 31, 2026",
            "Lee Health",
            "§ 115-3B(3)",
        ):
            self.assertIn(expected, text)

        # The next year, the same premises renews without interruption: the renewal fee.
        with on(date(2027, 1, 12)):
            r, renewal = self.apply(license_year="2027", signed_on="2027-01-10")
            self.assertTrue(renewal.renewal)
            self.inspect(renewal)
            r = self.client.get(reverse("kennel", args=[renewal.pk]))
            self.assertContains(r, "Kennel license fee (renewal)")
            r, unchanged = self.approve(renewal, amount="25.00")
            self.assertFalse(unchanged)
            renewal.refresh_from_db()
            self.assertEqual((renewal.fee, renewal.expires_on), (25, date(2027, 12, 31)))

    def test_it_refuses_while_a_siting_or_space_check_fails(self):
        set_fees(self.clerk, self.benton, KENNEL_FEES)
        r, kennel = self.apply(
            from_other_structures_ft="150", from_lot_lines_ft="3", kennel_sq_ft="100", privacy_fence=""
        )
        self.inspect(kennel)
        r, unchanged = self.approve(kennel, amount="50.00")
        self.assertTrue(unchanged)
        for message in (
            "The kennel is 150.0 ft from the nearest residential or commercial structure; at least 200 ft is required",
            "The kennel is 3.0 ft from a lot line; at least 5 ft from all lot lines is required",
            "The kennel has 100.0 sq ft for 5 dogs; at least 30 sq ft for each animal is required",
            "The kennel is not surrounded by privacy fencing",
        ):
            self.assertContains(r, message)
        self.assertContains(r, "(§ 115-3B(3))")

    def test_it_refuses_more_than_ten_dogs_and_fewer_than_the_threshold(self):
        set_fees(self.clerk, self.benton, KENNEL_FEES)
        r, kennel = self.apply(kennel_sq_ft="1000")
        self.inspect(kennel)
        for i in range(6):
            self.add_dog(f"Extra {i}")
        r, unchanged = self.approve(kennel, amount="50.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "11 dogs over 5 months are kept at 400 County Rd K; no more than 10 may be kept")
        self.assertContains(r, "(§ 115-3B)")

        quiet = registry.create_premises(
            acting_user=self.clerk, municipality=self.benton, street="2 Quiet Ln", use="single-family"
        )
        r, small = self.apply(premises=quiet.pk)
        self.inspect(small)
        r, unchanged = self.approve(small, amount="50.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "a kennel license is required, and issued, for more than 3 (§ 115-3B)")

    def test_it_refuses_while_the_fee_is_not_set_and_links_to_the_schedule(self):
        r, kennel = self.apply()
        self.inspect(kennel)
        r, unchanged = self.approve(kennel, amount="50.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "No amount is set for “kennel license — initial”: § 115-3B(1) leaves it to the local")
        self.assertContains(r, reverse("fees", args=["benton"]))

    def test_an_incomplete_application_names_the_field_and_writes_nothing(self):
        before = self.counts()
        r, _ = self.apply(description="", capacity="", use="")
        self.assertEqual(self.counts(), before)
        self.assertEqual(r.status_code, 200)
        r = self.client.post(
            reverse("kennel-new", args=["benton"]),
            {**APPLICATION, "owner": self.owner.pk, "premises": self.farm.pk, "description": "  "},
        )
        self.assertContains(r, "Enter a brief description of the kennel and facility: the application must state it")
        self.assertContains(r, "(§ 115-3B(1))")
        self.assertEqual(self.counts(), before)

    def test_refusal_and_void_keep_the_record(self):
        r, kennel = self.apply()
        r = self.client.post(
            reverse("kennel-refuse", args=[kennel.pk]), {"reason": "Premises are in the wrong zoning district"}
        )
        kennel.refresh_from_db()
        self.assertEqual(
            (kennel.status, kennel.refusal_reason), ("refused", "Premises are in the wrong zoning district")
        )
        r = self.client.post(
            reverse("kennel-inspect", args=[kennel.pk]),
            {"inspector": "veterinarian", "inspector_name": "x", "inspected_on": "2026-03-09"},
        )
        self.assertContains(r, "The application is refused.")
        r, again = self.apply()
        self.assertNotEqual(again.pk, kennel.pk)  # a refused application does not block a new one
        self.client.post(reverse("kennel-void", args=[again.pk]), {"reason": "Filed twice"})
        again.refresh_from_db()
        self.assertEqual(again.void_reason, "Filed twice")
        self.assertEqual(KennelLicense.objects.count(), 2)

    def test_the_municipality_page_links_kennels_and_the_api_applies(self):
        self.login(self.clerk)
        r = self.client.get(reverse("municipality", args=["benton"]))
        self.assertContains(r, reverse("kennels", args=["benton"]))
        body = {
            **APPLICATION,
            "owner_id": self.owner.pk,
            "premises_id": self.farm.pk,
            "privacy_fence": True,
            "capacity": 8,
            "license_year": 2026,
        }
        r = self.client.post("/api/v1/municipalities/benton/kennels", body, content_type="application/json")
        self.assertEqual(r.status_code, 201, r.content)
        pk = r.json()["id"]
        r = self.client.post(f"/api/v1/kennels/{pk}/approve", {"payment": None}, content_type="application/json")
        self.assertEqual(r.status_code, 422)
        self.assertIn("(§ 115-3B(2))", " ".join(r.json()["errors"]["inspection"]))
