"""Clerks sell next year's licenses in December, before January 1: once next year's tags are in
stock the clerk chooses the license year at the counter, and the engine's fees for that year apply."""

from datetime import date
from decimal import Decimal

from django.urls import reverse

from dogtag.licensing import actions
from dogtag.licensing.models import License
from dogtag.portal.models import Application
from dogtag.portal.quote import quote
from tests.base import BaseTestCase, on, vaccinate
from tests.licensing.base import BENTON_FEES, set_fees
from tests.portal.helpers import FULL

DECEMBER = date(2026, 12, 1)


@on(DECEMBER)
class DecemberSalesTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        set_fees(cls.clerk, cls.benton, BENTON_FEES)
        # Next year's tax is higher: the board's resolution takes effect January 1.
        set_fees(cls.clerk, cls.benton, {"license_tax.unaltered": "12.00"}, effective_on=date(2027, 1, 1),
                 authority="Res. 2026-9")  # fmt: skip
        actions.receive_tag_lot(acting_user=cls.clerk, municipality=cls.benton, license_year=2026,
                                first_serial=1, last_serial=9)  # fmt: skip
        vaccinate(cls.dog, cls.vet, "R-2026", date(2026, 6, 1), date(2029, 6, 1))

    def counter(self, **params):
        self.login(self.clerk)
        return self.client.get(reverse("license-counter", args=[self.dog.pk]), params)

    def test_without_next_years_tags_there_is_no_choice(self):
        r = self.counter()
        self.assertNotContains(r, 'aria-label="License year"')
        self.assertContains(r, "Issue the 2026 license")

    def test_with_next_years_tags_the_clerk_sells_a_2027_license_at_2027_rates(self):
        actions.receive_tag_lot(acting_user=self.clerk, municipality=self.benton, license_year=2027,
                                first_serial=501, last_serial=509)  # fmt: skip
        r = self.counter()
        self.assertContains(r, 'aria-label="License year"')
        # Issue 29: the year a clerk would choose is preselected, and the page says why.
        self.assertContains(r, "Issue the 2027 license")
        self.assertContains(r, "a 2026 license would expire on December 31, 2026")
        self.assertContains(self.counter(license_year=2026), "Issue the 2026 license")
        r = self.counter(license_year=2027)
        self.assertContains(r, "Issue the 2027 license")
        self.assertContains(r, "$12.00")
        r = self.client.post(
            reverse("license-counter", args=[self.dog.pk]),
            {"license_year": "2027", "method": "cash", "amount": "12.00"},
        )
        license = License.objects.get()
        self.assertRedirects(r, reverse("license", args=[license.pk]))
        self.assertEqual((license.license_year, license.serial, license.tax), (2027, 501, Decimal("12.00")))
        self.assertEqual(license.expires_on, date(2027, 12, 31))
        # A year the counter does not offer falls back to the preselected one.
        self.assertContains(self.counter(license_year=2031), '<a href="?license_year=2027" aria-current="page">')

    def test_no_tags_in_stock_links_to_tag_stock(self):
        for serial in range(1, 10):
            actions.issue_license(
                self._dog(serial), acting_user=self.clerk, payment={"method": "cash", "amount": "15.00"}
            )
        r = self.counter()
        self.assertContains(r, "No 2026 tags are left in stock")
        self.assertContains(r, f'href="{reverse("tags", args=["benton"])}"')

    def _dog(self, n):
        from dogtag.registry import actions as registry

        dog = registry.register_animal(acting_user=self.clerk, municipality=self.benton, owner=self.owner,
                                       name=f"Dog {n}", sex="male", birth_date=date(2020, 1, 1))  # fmt: skip
        vaccinate(dog, self.vet, f"R-{n}", date(2026, 6, 1), date(2029, 6, 1))
        return dog


@on(DECEMBER)
class DecemberPortalTests(BaseTestCase):
    """The portal sells the years the counter sells: next year's once its tags are in stock."""

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        set_fees(cls.clerk, cls.benton, BENTON_FEES)
        set_fees(cls.clerk, cls.benton, {"license_tax.unaltered": "12.00"}, effective_on=date(2027, 1, 1),
                 authority="Res. 2026-9")  # fmt: skip
        actions.receive_tag_lot(acting_user=cls.clerk, municipality=cls.benton, license_year=2026,
                                first_serial=1, last_serial=9)  # fmt: skip

    def start(self, **fields):
        return self.client.post("/apply/", {"municipality": self.benton.pk, "email": "dana@example.org", **fields})

    def test_without_next_years_tags_the_portal_offers_no_choice(self):
        self.assertNotContains(self.client.get("/apply/"), "License year")
        self.start()
        self.assertEqual(Application.objects.get().license_year, 2026)

    def test_with_next_years_tags_the_resident_chooses_2027_and_is_quoted_2027_rates(self):
        actions.receive_tag_lot(acting_user=self.clerk, municipality=self.benton, license_year=2027,
                                first_serial=501, last_serial=509)  # fmt: skip
        r = self.client.get("/apply/")
        self.assertContains(r, '<option value="2027" selected>2027 license</option>', html=True)
        self.assertContains(r, "a 2026 license would expire on December 31, 2026")
        self.start(license_year="2027")
        app = Application.objects.get()
        self.assertEqual(app.license_year, 2027)
        owed = quote(app_with(app, FULL), DECEMBER)
        self.assertEqual((owed.license_year, owed.total), (2027, Decimal("12.00")))

    def test_a_municipality_without_next_years_tags_refuses_next_year_by_field(self):
        actions.receive_tag_lot(acting_user=self.clerk, municipality=self.benton, license_year=2027,
                                first_serial=501, last_serial=509)  # fmt: skip
        r = self.client.post(
            "/apply/", {"municipality": self.webster.pk, "email": "d@example.org", "license_year": "2027"}
        )
        self.assertContains(r, "sells 2026 licenses today, not 2027", status_code=200)
        self.assertFalse(Application.objects.exists())


def app_with(app, data):
    app.data = dict(data)
    return app
