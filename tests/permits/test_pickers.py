"""Pickers that scale in the permit forms: the hen permit's applicant and premises are
type-ahead searches, never a list of every person or address, and "New person" comes back with
the new person chosen as the applicant."""

from datetime import date

from django.urls import reverse

from dogtag.registry import actions as registry
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase


@on(date(2026, 5, 1))
class HenPermitPickerTests(EnforcementTestCase):
    def test_the_applicant_and_the_premises_are_type_ahead_searches(self):
        clerk, place = self.clerks["cedarburg"], self.places["cedarburg"]
        for n in range(12):
            registry.create_person(acting_user=clerk, municipality=place, name=f"Hattie {n:02d}",
                                   street=f"{n} Coop Ln", city="Cedarburg", postal_code="53012")  # fmt: skip
            registry.create_premises(acting_user=clerk, municipality=place, street=f"{n} Coop Ln", use="single-family")
        self.login(clerk)
        url = reverse("hen-permit-new", args=["cedarburg"])
        page = self.client.get(url)
        self.assertContains(page, f'hx-get="{reverse("pick-people", args=["cedarburg"])}"')
        self.assertContains(page, f'hx-get="{reverse("pick-premises", args=["cedarburg"])}"')
        self.assertNotContains(page, "Hattie 07")
        self.assertNotContains(page, "7 Coop Ln")
        # back from "New person": the new person is the applicant, shown by name
        robin = registry.create_person(acting_user=clerk, municipality=place, name="Robin Rooster",
                                       street="3 Coop Ln", city="Cedarburg", postal_code="53012")  # fmt: skip
        page = self.client.get(url, {"applicant": robin.pk})
        self.assertContains(page, f'name="applicant" value="{robin.pk}"')
        self.assertContains(page, 'value="Robin Rooster, 3 Coop Ln"')
