"""Issue 29, dead end 7: the root page is the public one (each municipality's licensing, the
found-dog lookup, office hours) with the staff login one link away."""

from datetime import date

from django.urls import reverse

from dogtag.portal.models import MunicipalityContact
from tests.base import BaseTestCase, on


@on(date(2026, 12, 3))
class FrontDoorTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        MunicipalityContact.objects.update_or_create(
            municipality=cls.cedarburg,
            defaults={
                "clerk_phone": "262-555-0101",
                "clerk_hours": "Monday–Friday 8 a.m.–4:30 p.m.",
                "office_address": "W63 N645 Washington Ave",
                "police_phone": "262-555-0911",
            },
        )

    def test_a_resident_at_the_root_can_apply_renew_look_up_a_found_dog_and_staff_can_log_in(self):
        r = self.client.get("/")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "City of Cedarburg")
        self.assertContains(r, "Monday–Friday 8 a.m.–4:30 p.m.")
        self.assertContains(r, "262-555-0101")
        self.assertContains(r, f'href="{reverse("portal-home")}?municipality={self.cedarburg.pk}"')
        self.assertContains(r, f'href="{reverse("portal-found")}"')
        self.assertContains(r, "renew")
        self.assertContains(r, f'href="{reverse("login")}"')
        # Cedarburg licenses cats as well (its pack); Benton dogs only.
        self.assertContains(r, "Dog and cat licenses")
        self.assertNotContains(r, "Log in to Dogtag")

    def test_the_apply_link_preselects_the_municipality(self):
        r = self.client.get(reverse("portal-home"), {"municipality": self.cedarburg.pk})
        self.assertContains(r, f'<option value="{self.cedarburg.pk}" selected>')

    def test_staff_at_the_root_still_reach_their_home(self):
        self.login(self.clerk)
        self.assertRedirects(self.client.get("/"), reverse("municipality", args=["benton"]))

    def test_an_officer_of_several_municipalities_starts_at_their_cases(self):
        """Issue 29, confusing: the officer's home was a list of municipalities rather than their cases."""
        self.login(self.officer)
        self.assertRedirects(self.client.get("/"), reverse("my-cases"), fetch_redirect_response=False)

    def test_the_demo_staff_are_people_on_certificates_not_usernames(self):
        """Issue 29, confusing: "Issued by benton-clerk" on certificates and receipts."""
        from django.contrib.auth import get_user_model

        clerk = get_user_model().objects.get(username="benton-clerk")
        self.assertEqual(clerk.get_full_name(), "Joan Miller")
