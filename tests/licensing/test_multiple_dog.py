"""Webster's multiple-dog license (§ 98-3B) through the clerk's pages: the tax for 12 or fewer
dogs plus each over 12, a tag for each dog authorized, the inspection consent, revocation that
retires the tags, and the individual license refused for a dog the license covers."""

import io
from datetime import date

from django.urls import reverse
from pypdf import PdfReader

from dogtag.audit.models import AuditEvent
from dogtag.licensing import actions
from dogtag.licensing.models import License, Payment, Tag
from dogtag.registry import actions as registry
from tests.base import BaseTestCase, on
from tests.licensing.base import set_fees

WEBSTER_FEES = {
    "license_tax.altered": "6.00",
    "license_tax.unaltered": "12.00",
    "late_fee": "5.00",
    "multiple_dog_license.tax": "35.00",
    "multiple_dog_license.each_additional": "3.00",
}


def keeper_and_dogs(cls):
    """Kim Keeper in Webster with four registered, vaccinated dogs, and 2026 tags in stock."""
    w = cls.webster
    cls.keeper = registry.create_person(
        acting_user=cls.webster_clerk,
        municipality=w,
        name="Kim Keeper",
        street="9 Pine Rd",
        city="Webster",
        postal_code="54893",
    )
    cls.dogs = [
        registry.register_animal(
            acting_user=cls.webster_clerk,
            municipality=w,
            owner=cls.keeper,
            name=name,
            sex="female",
            breed="Husky",
            color="gray",
            birth_date=date(2023, 4, 1),
        )
        for name in ("Aska", "Blue", "Cleo", "Dusk")
    ]
    for dog in cls.dogs:
        registry.record_vaccination(
            dog,
            acting_user=cls.webster_clerk,
            certificate_serial=f"W-{dog.name}",
            vaccinated_on=date(2025, 6, 1),
            vaccine_type="killed",
            vaccine_serial="L1",
            expires_on=date(2028, 6, 1),
            veterinarian_name="Dr. V",
            veterinarian_address="1 Rd",
            veterinarian_phone="1",
            rabies_tag_number=f"RT-{dog.name}",
        )
    actions.receive_tag_lot(
        acting_user=cls.webster_clerk,
        municipality=w,
        license_year=2026,
        first_serial=501,
        last_serial=540,
        received_on=date(2026, 1, 2),
    )


@on(date(2026, 2, 10))
class MultipleDogTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        keeper_and_dogs(cls)

    def counts(self):
        return (
            License.objects.count(),
            Payment.objects.count(),
            AuditEvent.objects.count(),
            Tag.objects.filter(status="in-stock").count(),
        )

    def apply(self, **data):
        self.login(self.webster_clerk)
        before = self.counts()
        body = {"dogs": 13, "animals": [str(d.pk) for d in self.dogs], "inspection_consent": "on", "method": "cash"}
        body.update(data)
        r = self.client.post(reverse("multiple-dog-apply", args=[self.keeper.pk]), body)
        return r, before == self.counts()

    def test_it_issues_the_license_with_a_tag_for_each_dog(self):
        set_fees(self.webster_clerk, self.webster, WEBSTER_FEES)
        self.login(self.webster_clerk)
        r = self.client.get(reverse("multiple-dog-apply", args=[self.keeper.pk]) + "?dogs=13")
        self.assertContains(r, "$38.00")  # $35.00 for 12 or fewer + $3.00 for the 13th
        self.assertContains(r, "1 dog(s) over 12")
        self.assertContains(r, "§ 98-3B")
        self.assertContains(r, "a multiple-dog license is required")
        r, unchanged = self.apply(amount="38.00")
        self.assertFalse(unchanged)
        license = License.objects.get(kind=License.Kind.MULTIPLE_DOG)
        self.assertRedirects(r, reverse("multiple-dog-license", args=[license.pk]))
        self.assertEqual((license.tax, license.dogs_authorized, license.holder), (38, 13, self.keeper))
        self.assertEqual(license.inspection_consent_on, date(2026, 2, 10))
        self.assertEqual(license.expires_on, date(2026, 12, 31))
        self.assertEqual(set(license.covered_animals.all()), set(self.dogs))
        self.assertEqual(license.payment.amount, 38)
        tags = list(license.tags.order_by("serial"))
        self.assertEqual([t.serial for t in tags], list(range(501, 514)))
        self.assertTrue(all(t.status == Tag.Status.ISSUED for t in tags))
        self.assertEqual(license.serial, 501)
        self.assertEqual(Tag.objects.filter(municipality=self.webster, status="in-stock").count(), 40 - 13)
        self.assertTrue(AuditEvent.objects.filter(action="license.issue_multiple_dog", object_id=str(license.pk)))
        pdf = self.client.get(reverse("multiple-dog-certificate", args=[license.pk]))
        text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
        self.assertIn("2026 Multiple-Dog License No. 501", text)
        self.assertIn("Kim Keeper", text)
        self.assertIn("No. 513", text)
        self.assertIn("§ 98-3B", text)

    def test_it_refuses_while_the_tax_is_not_set_and_links_to_the_schedule(self):
        self.login(self.webster_clerk)
        r = self.client.get(reverse("multiple-dog-apply", args=[self.keeper.pk]))
        self.assertContains(r, "No amount is set for “multiple dog license — tax”: § 98-3B leaves it to the local")
        self.assertContains(r, reverse("fees", args=["webster"]))
        r, unchanged = self.apply(amount="38.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "§ 98-3B leaves it to the local fee schedule")

    def test_it_refuses_without_the_inspection_consent(self):
        set_fees(self.webster_clerk, self.webster, WEBSTER_FEES)
        r, unchanged = self.apply(amount="38.00", inspection_consent="")
        self.assertTrue(unchanged)
        self.assertContains(r, "the application is deemed consent to inspection")
        self.assertContains(r, "(§ 98-3B)")

    def test_it_refuses_partial_payment_and_a_single_dog(self):
        set_fees(self.webster_clerk, self.webster, WEBSTER_FEES)
        r, unchanged = self.apply(amount="35.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "$35.00 received but $38.00 is due")
        r, unchanged = self.apply(dogs=1, animals=[str(self.dogs[0].pk)], amount="35.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "A multiple-dog license is for a keeper of more than 1 dogs; 1 entered (§ 98-3B).")

    def test_it_refuses_more_named_dogs_than_authorized(self):
        set_fees(self.webster_clerk, self.webster, WEBSTER_FEES)
        r, unchanged = self.apply(dogs=3, amount="35.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "4 dogs are named but only 3 would be authorized")

    def test_a_covered_dog_is_refused_an_individual_license_until_revocation(self):
        set_fees(self.webster_clerk, self.webster, WEBSTER_FEES)
        self.apply(amount="38.00")
        license = License.objects.get(kind=License.Kind.MULTIPLE_DOG)
        before = self.counts()
        r = self.client.post(reverse("license-counter", args=[self.dogs[0].pk]), {"method": "cash", "amount": "6.00"})
        self.assertEqual(self.counts(), before)
        self.assertContains(r, "Aska is kept under multiple-dog license 501 for 2026, instead of a license tax for")
        self.assertContains(r, "(§ 98-3B)")

        r = self.client.post(
            reverse("multiple-dog-revoke", args=[license.pk]),
            {"category": "refused-inspection", "reason": "Entry refused to the village officer on Feb 9"},
        )
        self.assertRedirects(r, reverse("multiple-dog-license", args=[license.pk]))
        license.refresh_from_db()
        self.assertIsNotNone(license.voided_at)
        self.assertEqual(license.revocation, "refused-inspection")
        self.assertIn("Revoked — refused inspection (§ 98-3B)", license.void_reason)
        self.assertFalse(license.tags.filter(status=Tag.Status.ISSUED).exists())
        self.assertEqual(license.tags.filter(status=Tag.Status.VOIDED).count(), 13)
        self.assertTrue(AuditEvent.objects.filter(action="license.revoke", object_id=str(license.pk)).exists())
        r = self.client.get(reverse("license-counter", args=[self.dogs[0].pk]))
        self.assertNotContains(r, "kept under multiple-dog license")

    def test_revocation_needs_a_category_and_a_neglect_revocation_bars_a_new_license(self):
        set_fees(self.webster_clerk, self.webster, WEBSTER_FEES)
        self.apply(amount="38.00")
        license = License.objects.get(kind=License.Kind.MULTIPLE_DOG)
        before = self.counts()
        r = self.client.post(reverse("multiple-dog-revoke", args=[license.pk]), {"category": "", "reason": ""})
        self.assertEqual(self.counts(), before)
        self.assertEqual(r.status_code, 200)
        self.login(self.officer)  # the village's officer may revoke too
        r = self.client.post(
            reverse("multiple-dog-revoke", args=[license.pk]), {"category": "neglect", "reason": "No shelter"}
        )
        self.assertEqual(r.status_code, 302)
        r, unchanged = self.apply(amount="38.00")
        self.assertTrue(unchanged)
        self.assertContains(r, "was revoked for failure to provide proper food, drink or shelter")

    def test_the_form_offers_the_dogs_the_keeper_keeps_on_the_day_as_the_check_counts_them(self):
        # The check (rules.check_animals) reads the owners on the day; the form's list reads the same.
        c = self.webster_clerk
        later, leaving = (
            registry.register_animal(acting_user=c, municipality=self.webster, owner=None, unowned=True, name=name,
                                     sex="male", breed="Husky", color="gray", birth_date=date(2023, 4, 1))
            for name in ("Echo", "Frost")
        )  # fmt: skip
        registry.add_ownership(later, acting_user=c, person=self.keeper, started_on=date(2026, 3, 1))
        ownership = registry.add_ownership(leaving, acting_user=c, person=self.keeper, started_on=date(2026, 1, 1))
        registry.end_ownership(ownership, acting_user=c, ended_on=date(2026, 2, 28))
        self.login(c)
        r = self.client.get(reverse("multiple-dog-apply", args=[self.keeper.pk]))
        self.assertContains(r, "Frost")  # kept until the end of the month
        self.assertNotContains(r, "Echo")  # kept only from March 1

    def test_the_municipality_page_links_it_and_the_list_finds_the_keeper(self):
        self.login(self.webster_clerk)
        r = self.client.get(reverse("municipality", args=["webster"]))
        self.assertContains(r, reverse("multiple-dog-licenses", args=["webster"]))
        self.assertNotContains(r, reverse("kennels", args=["webster"]))  # Webster's law has no kennel license
        r = self.client.get(reverse("multiple-dog-licenses", args=["webster"]), {"q": "Kim"})
        self.assertContains(r, reverse("multiple-dog-apply", args=[self.keeper.pk]))

    def test_the_api_issues_and_revokes(self):
        set_fees(self.webster_clerk, self.webster, WEBSTER_FEES)
        self.login(self.webster_clerk)
        r = self.client.post(
            "/api/v1/municipalities/webster/multiple-dog-licenses",
            {
                "keeper_id": self.keeper.pk,
                "dogs": 4,
                "animal_ids": [d.pk for d in self.dogs],
                "inspection_consent": True,
                "payment": {"amount": "35.00", "method": "cash"},
            },
            content_type="application/json",
        )
        self.assertEqual(r.status_code, 201, r.content)
        self.assertEqual(r.json()["tags"], [501, 502, 503, 504])
        pk = r.json()["id"]
        r = self.client.post(
            f"/api/v1/multiple-dog-licenses/{pk}/revoke",
            {"category": "x", "reason": "y"},
            content_type="application/json",
        )
        self.assertEqual(r.status_code, 422)
        self.assertIn("§ 98-3B", r.json()["errors"]["category"][0])
        r = self.client.post(
            f"/api/v1/multiple-dog-licenses/{pk}/revoke",
            {"category": "public-nuisance", "reason": "Abated"},
            content_type="application/json",
        )
        self.assertEqual(r.json()["revocation"], "public-nuisance")

    def test_recompute_keeps_the_number_typed_and_the_consent_and_issues_nothing(self):
        set_fees(self.webster_clerk, self.webster, WEBSTER_FEES)
        r, unchanged = self.apply(dogs="14", amount="38.00", recompute="1")
        self.assertTrue(unchanged)
        self.assertEqual(r.status_code, 200)
        page = r.content.decode()
        self.assertIn("for 14 dogs", page)
        self.assertIn("$41.00", page)  # $35.00 for 12 or fewer + $3.00 for each of the 13th and 14th
        self.assertRegex(page, r'name="dogs" value="14"')
        self.assertRegex(page, r'name="amount" value="41.00"')
        self.assertRegex(page, r'name="inspection_consent"[^>]*checked')
        self.assertEqual(page.count("checked"), 1 + len(self.dogs))  # the consent and each dog still ticked


@on(date(2026, 12, 3))
class MultipleDogDecemberTests(BaseTestCase):
    """Issue 29, dead end 3: in December, once next year's tags are in stock, the clerk sells next
    year's multiple-dog license, as the counter sells next year's individual license."""

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        keeper_and_dogs(cls)
        set_fees(cls.webster_clerk, cls.webster, WEBSTER_FEES)
        actions.receive_tag_lot(
            acting_user=cls.webster_clerk, municipality=cls.webster, license_year=2027,
            first_serial=1001, last_serial=1040, received_on=date(2026, 11, 20),
        )  # fmt: skip

    def test_the_clerk_sells_next_years_multiple_dog_license(self):
        self.login(self.webster_clerk)
        url = reverse("multiple-dog-apply", args=[self.keeper.pk])
        page = self.client.get(url, {"license_year": 2027, "dogs": 13})
        self.assertContains(page, 'aria-label="License year"')
        self.assertContains(page, "Issue the 2027 multiple-dog license")
        body = {"dogs": 13, "animals": [str(d.pk) for d in self.dogs], "inspection_consent": "on", "method": "cash"}
        r = self.client.post(url, {**body, "license_year": "2027", "amount": "38.00"})
        license = License.objects.get(kind="multiple-dog")
        self.assertRedirects(r, reverse("multiple-dog-license", args=[license.pk]))
        self.assertEqual((license.license_year, license.serial, license.expires_on), (2027, 1001, date(2027, 12, 31)))
