import re
from datetime import date

from dogtag.outbox.models import Message
from dogtag.portal.models import Application, MunicipalityContact
from tests.base import BaseTestCase, on, vaccinate
from tests.licensing.base import benton_license, benton_renewal_run


class RenewFromNoticeTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(date(2026, 2, 10)):
            cls.fee, cls.license = benton_license(cls)
        with on(date(2026, 12, 1)):
            benton_renewal_run(cls)

    @on(date(2026, 12, 2))
    def test_the_notice_link_opens_last_years_record(self):
        text = Message.objects.get(kind="renewal-notice").text
        path = re.search(r"https?://[^/\s]+(/renew/\S+/)", text).group(1)
        r = self.client.get(path)
        app = Application.objects.get()
        self.assertRedirects(r, f"/apply/a/{app.token}/")
        self.assertEqual(
            (app.kind, app.license_year, app.animal, app.email), ("renewal", 2027, self.dog, "pat@example.org")
        )
        r = self.client.get(r.url)
        self.assertContains(r, 'value="Rex"')
        self.assertContains(r, 'value="R-1001"')
        self.client.get(path)  # following the link again opens the same application
        self.assertEqual(Application.objects.count(), 1)
        self.assertEqual(self.client.get("/renew/forged-token/").status_code, 404)

    def renewal(self):
        text = Message.objects.get(kind="renewal-notice").text
        self.client.get(re.search(r"https?://[^/\s]+(/renew/\S+/)", text).group(1))
        return Application.objects.get()

    @on(date(2026, 12, 2))
    def test_a_renewal_does_not_ask_again_for_the_current_certificate_the_clerk_holds(self):
        MunicipalityContact.objects.create(municipality=self.benton, office_address="1 Main St, Benton",
                                           clerk_phone="608-555-0100", clerk_hours="Monday–Friday 8–4:30",
                                           police_phone="608-555-0911")  # fmt: skip
        # Rex was revaccinated in May (R-1001 was his first shot: current for one year only).
        vaccinate(self.dog, self.vet, "R-1002", date(2026, 5, 20), date(2029, 5, 20))
        app = self.renewal()
        r = self.client.get(f"/apply/a/{app.token}/")
        self.assertContains(r, "The clerk already holds rabies certificate R-1002, current through May 19, 2029")
        # the clerk's office: where, when and how to call
        self.assertContains(r, "1 Main St, Benton")
        self.assertContains(r, "608-555-0100")
        self.assertContains(r, "Monday–Friday 8–4:30")
        r = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertNotContains(r, "Upload a photo or PDF of the rabies certificate.")
        self.assertContains(r, "costs $10.00 because it is not spayed or neutered")
        self.assertContains(r, "608-555-0100")

    @on(date(2026, 12, 2))
    def test_a_certificate_the_engine_finds_expired_is_asked_for_again(self):
        app = self.renewal()  # R-1001, a first shot of June 2025: current through May 31, 2026
        r = self.client.get(f"/apply/a/{app.token}/")
        self.assertNotContains(r, "The clerk already holds")
        r = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertContains(r, "Upload a photo or PDF of the rabies certificate.")

    @on(date(2026, 12, 2))
    def test_a_new_certificate_number_is_asked_for_with_its_upload(self):
        vaccinate(self.dog, self.vet, "R-1002", date(2026, 5, 20), date(2029, 5, 20))
        app = self.renewal()
        r = self.client.post(f"/apply/a/{app.token}/", {**app.data, "certificate_serial": "R-2002", "step": "review"})
        r = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertContains(r, "Upload a photo or PDF of the rabies certificate.")
