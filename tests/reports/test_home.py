"""A municipality's home: a new municipality's setup steps, each with its link, until done; the
clerk's and the officer's panels for today; the review queue one click away with its count."""

from datetime import date

from django.urls import reverse

from dogtag.accounts.models import Membership, Role
from dogtag.audit.models import AuditEvent
from dogtag.licensing import actions as licensing
from dogtag.portal.models import Application, MunicipalityContact
from tests.base import BaseTestCase, make_user, on
from tests.licensing.base import set_fees
from tests.portal.fixtures import benton_application

CONTACT = {
    "clerk_office": "Clerk-Treasurer's office",
    "office_address": "W6 Main St, Cedarburg",
    "clerk_phone": "262-555-0100",
    "clerk_hours": "Mon–Fri 8–4:30",
    "police_name": "Police (non-emergency)",
    "police_phone": "262-555-0911",
    "police_hours": "24 hours",
}


@on(date(2026, 2, 10))
class HomeTests(BaseTestCase):
    def home(self, user, slug="cedarburg"):
        self.login(user)
        return self.client.get(reverse("municipality", args=[slug]))

    def test_a_new_municipality_is_walked_through_its_setup(self):
        page = self.home(self.outsider)  # Cedarburg's clerk, on the first day
        self.assertContains(page, "Setting up City of Cedarburg")
        for link in (reverse("fees", args=["cedarburg"]), reverse("tags", args=["cedarburg"]),
                     reverse("municipality-contact", args=["cedarburg"])):  # fmt: skip
            self.assertContains(page, f'href="{link}"')
        self.assertContains(page, "Not set yet: impoundment fee.")  # the one amount Cedarburg delegates
        cedarburg = self.cedarburg
        set_fees(self.outsider, cedarburg, {"impoundment_fee": "25.00"})
        licensing.receive_tag_lot(acting_user=self.outsider, municipality=cedarburg, license_year=2026,
                                  first_serial=1, last_serial=10)  # fmt: skip
        r = self.client.post(reverse("municipality-contact", args=["cedarburg"]), {**CONTACT, "clerk_hours": ""})
        self.assertContains(r, "This field is required.")
        self.assertFalse(MunicipalityContact.objects.filter(municipality=cedarburg).exists())
        r = self.client.post(reverse("municipality-contact", args=["cedarburg"]), CONTACT)
        self.assertRedirects(r, reverse("municipality", args=["cedarburg"]))
        self.assertEqual(MunicipalityContact.objects.get(municipality=cedarburg).clerk_phone, "262-555-0100")
        self.assertTrue(AuditEvent.objects.filter(action="contact.set", actor=self.outsider).exists())
        self.assertNotContains(self.home(self.outsider), "Setting up")
        # Without an officer, the administrator is asked to add one.
        Membership.objects.filter(municipality=cedarburg, role=Role.OFFICER).delete()
        page = self.home(self.outsider)
        self.assertContains(page, "No one serves as an officer yet: the administrator adds them.")
        make_user("cedarburg-deputy", (cedarburg, Role.OFFICER))
        self.assertNotContains(self.home(self.outsider), "Setting up")

    def test_the_clerks_home_links_the_review_queue_with_its_count(self):
        app = benton_application(self)
        Application.objects.filter(pk=app.pk).update(status=Application.Status.SUBMITTED)
        page = self.home(self.clerk, "benton")
        queue = reverse("application-queue", args=["benton"])
        self.assertContains(page, f'<a href="{queue}">Online applications waiting</a> <span class="count due">1</span>')
        self.assertContains(page, "Today at the counter")
        self.assertNotContains(page, "Today on patrol")

    def test_an_officer_sees_the_patrol_panel_and_no_setup(self):
        page = self.home(self.officer, "benton")
        self.assertContains(page, "Today on patrol")
        self.assertNotContains(page, "Setting up")
        self.assertNotContains(page, "Today at the counter")

    def test_only_the_clerk_edits_the_offices_contact(self):
        self.login(self.officer)
        self.assertEqual(self.client.get(reverse("municipality-contact", args=["benton"])).status_code, 403)
