"""Every paper notice carries the clerk's office, and the renewal notice a short code that opens
the animal's renewal on the portal without an emailed link (issue 30 §6)."""

import io
from datetime import date

from django.conf import settings
from django.test import override_settings
from pypdf import PdfReader

from dogtag.lib import short_codes
from dogtag.licensing import actions as licensing
from dogtag.licensing.models import RenewalNotice
from dogtag.outbox.models import Message
from dogtag.portal.models import Application, MunicipalityContact
from dogtag.registry.models import Animal, RenewalCode
from tests.base import BaseTestCase, on
from tests.licensing.base import benton_license, benton_renewal_run, receive_tags
from tests.licensing.bulk import licensed_dogs
from tests.licensing.test_renewals import pdf_text

ADDRESS, PHONE, HOURS = "3 Village Hall Rd, Benton, WI 53803", "608-555-0142", "Mon–Fri 8 a.m.–4:30 p.m."


def squeeze(text: str) -> str:
    return "".join(text.split())


@on(date(2026, 12, 1))
class RenewalCodeTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        MunicipalityContact.objects.create(
            municipality=cls.benton, clerk_phone=PHONE, clerk_hours=HOURS, office_address=ADDRESS,
            police_phone="608-555-0911",
        )  # fmt: skip
        with on(date(2026, 2, 10)):
            cls.fee, cls.license = benton_license(cls)
        licensed_dogs(cls.benton, cls.clerk, 1, year=2026, emailed=lambda i: False, first=500)
        receive_tags(cls, 2001, 2100, 2027)  # next year's tags: 2027 licenses are on sale
        with on(date(2026, 12, 1)):
            cls.renewal_run = benton_renewal_run(cls)
        cls.no_email_dog = Animal.objects.get(name="Dog 00500")
        cls.code = RenewalCode.objects.get(animal=cls.dog, license_year=2027).code

    def type_code(self, code, **extra):
        return self.client.post("/renew/code/", {"code": code, **extra})

    def test_each_printed_notice_carries_its_code_and_the_office(self):
        codes = dict(RenewalCode.objects.values_list("animal_id", "code"))
        self.assertEqual(set(codes), {self.dog.pk, self.no_email_dog.pk})
        self.assertNotEqual(codes[self.dog.pk], codes[self.no_email_dog.pk])
        pages = [squeeze(p) for p in pdf_text(self.renewal_run.chunks.get().pdf)]
        self.assertEqual(len(pages), 2)
        rex = next(p for p in pages if "renewal:Rex" in p)
        other = next(p for p in pages if "renewal:Dog00500" in p)
        self.assertIn(squeeze(short_codes.shown(codes[self.no_email_dog.pk])), other)
        self.assertIn(squeeze(short_codes.shown(self.code)), rex)
        self.assertIn(squeeze(settings.DOGTAG_BASE_URL), rex)
        for shown in (ADDRESS, PHONE, HOURS):
            self.assertIn(squeeze(shown), rex)

    def test_a_part_printed_again_keeps_its_codes(self):
        self.assertEqual(licensing.print_renewal_chunk(self.renewal_chunk.pk), "already printed")
        from dogtag.licensing.renewal_codes import codes_for

        codes, new = codes_for(self.benton, 2027, [self.dog.pk])
        self.assertEqual((codes, new), ({self.dog.pk: self.code}, []))
        self.assertEqual(RenewalCode.objects.count(), 2)

    def test_the_code_opens_exactly_that_animals_renewal(self):
        typed = short_codes.shown(self.code).lower().replace("0", "o").replace("-", " ")  # as a person may type it
        r = self.type_code(typed)
        application = Application.objects.get()
        self.assertRedirects(r, f"/apply/a/{application.token}/", fetch_redirect_response=False)
        self.assertEqual((application.animal, application.license_year, application.kind), (self.dog, 2027, "renewal"))
        self.assertEqual(application.renewal_notice, RenewalNotice.objects.get(animal=self.dog, license_year=2027))
        self.assertEqual(application.email, "pat@example.org")
        self.type_code(self.code)
        self.assertEqual(Application.objects.count(), 1)  # typed again: the same renewal

    def test_the_front_page_offers_the_code(self):
        r = self.client.get("/")
        self.assertContains(r, 'action="/renew/code/"')
        self.assertContains(r, "Renewal code")

    def test_a_wrong_or_malformed_code_says_so_and_opens_nothing(self):
        wrong = "ZZZZZZZZ" if self.code != "ZZZZZZZZ" else "YYYYYYYY"
        self.assertContains(
            self.type_code(wrong), f"No renewal notice has the code {wrong[:4]}-{wrong[4:]}", status_code=400
        )
        self.assertContains(self.type_code("12AB"), "A renewal code is 8 letters and digits", status_code=400)
        self.assertContains(self.type_code("UUUUUUUU"), "A renewal code is 8 letters and digits", status_code=400)
        self.assertFalse(Application.objects.exists())

    def test_an_expired_code_says_which_year_it_was_for(self):
        with on(date(2028, 1, 15)):
            r = self.type_code(self.code)
        self.assertContains(
            r,
            f"The code {short_codes.shown(self.code)} was for the 2027 license, which is no longer sold",
            status_code=400,
        )
        self.assertFalse(Application.objects.exists())

    def test_a_code_for_a_dog_since_reported_dead_renews_nothing(self):
        licensing.report_animal(self.dog, kind="died", happened_on=date(2026, 11, 30), acting_user=self.clerk)
        self.assertContains(
            self.type_code(self.code), "Rex is recorded as deceased; there is nothing to renew.", status_code=400
        )

    @override_settings(DOGTAG_RENEWAL_CODE_LIMIT=2)
    def test_codes_are_throttled_per_address(self):
        self.type_code("ZZZZZZZ1")
        self.type_code("ZZZZZZZ2")
        r = self.type_code(self.code)  # even the right code, once past the limit
        self.assertContains(r, "More than 2 renewal codes were tried from your address", status_code=400)
        self.assertFalse(Application.objects.exists())
        r = self.client.post("/renew/code/", {"code": self.code}, REMOTE_ADDR="10.0.0.9")
        self.assertEqual(r.status_code, 302)

    def test_an_owner_with_no_email_on_record_gives_one_and_confirms_it(self):
        code = RenewalCode.objects.get(animal=self.no_email_dog).code
        r = self.type_code(code)
        self.assertContains(r, "We have no email address for you on record", status_code=400)
        self.assertFalse(Application.objects.exists())
        r = self.type_code(code, email="owner500@example.org")
        application = Application.objects.get()
        self.assertEqual((application.animal, application.email), (self.no_email_dog, "owner500@example.org"))
        self.assertIsNone(application.email_confirmed_at)
        self.assertEqual(Message.objects.filter(to="owner500@example.org").count(), 1)  # the confirmation only


@on(date(2026, 2, 10))
class OfficeOnPaperTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(date(2026, 2, 10)):
            cls.fee, cls.license = benton_license(cls)

    def pdf(self, path):
        r = self.client.get(path)
        self.assertEqual(r["Content-Type"], "application/pdf")
        return PdfReader(io.BytesIO(r.content))

    def test_the_certificate_and_receipt_name_the_office_on_their_one_page(self):
        self.login(self.clerk)
        for path in (f"/licenses/{self.license.pk}/certificate.pdf", f"/licenses/{self.license.pk}/receipt.pdf"):
            self.assertNotIn("608-555-0142", squeeze(self.pdf(path).pages[0].extract_text()))
        self.client.post("/m/benton/contact/", {"clerk_office": "Clerk-Treasurer's office", "office_address": ADDRESS,
                         "clerk_phone": PHONE, "clerk_hours": HOURS, "police_name": "Police",
                         "police_phone": "608-555-0911", "police_hours": "24 hours"})  # fmt: skip
        for path in (f"/licenses/{self.license.pk}/certificate.pdf", f"/licenses/{self.license.pk}/receipt.pdf"):
            reader = self.pdf(path)
            self.assertEqual(len(reader.pages), 1)
            text = squeeze(reader.pages[0].extract_text())
            for shown in (ADDRESS, PHONE, HOURS):
                self.assertIn(squeeze(shown), text)
