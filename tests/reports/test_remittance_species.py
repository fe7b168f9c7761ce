"""Cedarburg licenses cats under ch. 174 "as to the listing, licensing and tagging" only
(§ 7-1-6(e)(4)): the remittance pays the county the state-minimum part of its dog licenses and
nothing of its cat licenses."""

from datetime import date
from decimal import Decimal

from django.urls import reverse

from dogtag.accounts.models import Role
from dogtag.licensing import actions as licensing
from dogtag.registry import actions as registry
from tests.base import BaseTestCase, make_user, on, vaccinate


@on(date(2026, 2, 10))
class CedarburgRemittanceTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        clerk, vet = cls.outsider, make_user("vic", (cls.cedarburg, Role.VETERINARIAN))
        owner = registry.create_person(acting_user=clerk, municipality=cls.cedarburg, name="Cy Owner",
                                       street="5 Mill St", city="Cedarburg", postal_code="53012")
        licensing.receive_tag_lot(acting_user=clerk, municipality=cls.cedarburg, license_year=2026,
                                  first_serial=1, last_serial=50, received_on=date(2026, 1, 2))
        for species, name in (("cat", "Tom"), ("dog", "Fido")):
            animal = registry.register_animal(acting_user=clerk, municipality=cls.cedarburg, owner=owner, name=name,
                                              species=species, breed="Mixed", color="grey", sex="male",
                                              birth_date=date(2023, 1, 5))
            vaccinate(animal, vet, f"C-{name}", date(2025, 6, 1), date(2026, 6, 1))
            licensing.issue_license(animal, acting_user=clerk, payment={"amount": "10.00", "method": "cash"},
                                    on=date(2026, 2, 10))

    def test_a_cat_license_sends_nothing_to_the_county_and_a_dog_license_its_state_minimum(self):
        self.login(self.outsider)
        period = {"start": "2026-01-01", "end": "2026-12-31"}
        r = self.client.get(reverse("report-remittance", args=["cedarburg"]), period)
        rows = {row[1]: row for row in r.context["report"].tables[0].rows}
        # Kind, class, tax each, licenses, collected, state minimum, local, late fees, retained, to the county
        self.assertEqual(rows["intact cat"][3:], [1, Decimal("10.00"), Decimal("0.00"), Decimal("10.00"),
                                                  Decimal("0.00"), Decimal("0.00"), Decimal("0.00")])
        self.assertEqual(rows["intact"][3:], [1, Decimal("10.00"), Decimal("8.00"), Decimal("2.00"),
                                              Decimal("0.00"), Decimal("0.00"), Decimal("8.00")])
        self.assertContains(r, "Pay the county treasurer $8.00")
        self.assertContains(r, "§ 7-1-6(e)(4)")
