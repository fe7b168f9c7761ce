"""Issue 31 §3: an accessibility statement, public, linked from every page's footer (the portal's
and the staff pages'), saying how to report a problem to each municipality's office."""

from django.urls import reverse

from dogtag.portal.models import MunicipalityContact
from tests.base import BaseTestCase


class AccessibilityStatementTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        MunicipalityContact.objects.update_or_create(
            municipality=cls.cedarburg,
            defaults={
                "clerk_office": "City Clerk's office",
                "clerk_phone": "262-555-0101",
                "clerk_hours": "Monday–Friday 8 a.m.–4:30 p.m.",
                "office_address": "W63 N645 Washington Ave",
                "police_phone": "262-555-0911",
            },
        )

    def test_anyone_reads_how_to_report_a_problem_to_their_municipalitys_office(self):
        r = self.client.get(reverse("accessibility"))
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "<h1>Accessibility</h1>", html=True)
        self.assertContains(r, "WCAG")
        self.assertContains(r, "Report a problem")
        self.assertContains(r, "City Clerk&#x27;s office")
        self.assertContains(r, "W63 N645 Washington Ave")
        self.assertContains(r, 'href="tel:262-555-0101"')
        self.assertContains(r, "Monday–Friday 8 a.m.–4:30 p.m.")
        # a municipality whose office has not set its contact yet is still listed
        self.assertContains(r, str(self.benton))

    def test_the_footer_links_to_it_on_the_portal_and_on_the_staff_pages(self):
        link = f'<a href="{reverse("accessibility")}">Accessibility</a>'
        for url in (reverse("home"), reverse("portal-home"), reverse("portal-found")):
            self.assertContains(self.client.get(url), link, html=True, msg_prefix=url)
        self.login(self.clerk)
        page = self.client.get(reverse("municipality", args=[self.benton.slug]))
        self.assertContains(page, link, html=True)
