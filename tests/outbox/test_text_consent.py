"""Consent to text messages (issue 30 §5): the clerk records it from the person's page (the
number, how the person consented) and sees its history (when, how, by whom, stopped when), or
ends it; the owner opts in on their pet's page with the consent's words shown and kept
("online", when), or opts out. Each an audited action; a bad number is a clear error and
writes nothing."""

from datetime import date

from django.conf import settings

from dogtag.audit.models import AuditEvent
from dogtag.lib import links
from dogtag.outbox.models import TextConsent
from tests.base import BaseTestCase, on
from tests.licensing.base import benton_license


@on(date(2026, 3, 2))
class ClerkConsentTests(BaseTestCase):
    def page(self):
        return f"/people/{self.owner.pk}/texts/"

    def test_the_person_s_page_leads_to_the_texts_page(self):
        self.login(self.clerk)
        person = self.client.get(f"/people/{self.owner.pk}/")
        self.assertContains(person, f'href="{self.page()}"')
        self.assertContains(person, "No consent to text messages.")
        form = self.client.get(self.page())
        self.assertContains(form, "Record consent to texts")
        self.assertContains(form, 'name="phone"')
        self.assertContains(form, "Signed form")

    def test_the_clerk_records_consent_and_sees_its_history(self):
        self.login(self.clerk)
        response = self.client.post(self.page(), {"phone": "(608) 555-0142", "how": "telephone"})
        self.assertRedirects(response, self.page())
        consent = TextConsent.objects.get()
        self.assertEqual(
            (consent.person, consent.phone, consent.how, consent.recorded_by, consent.stopped_at),
            (self.owner, "+16085550142", "telephone", self.clerk, None),
        )
        self.assertTrue(AuditEvent.objects.filter(action="texts.consent", object_id=str(consent.pk)).exists())
        page = self.client.get(self.page())
        self.assertContains(page, "+16085550142")
        self.assertContains(page, "March 2, 2026")
        self.assertContains(page, "By telephone")
        self.assertContains(page, self.clerk.username)
        self.assertContains(page, "Live")

    def test_a_bad_number_is_a_clear_error_and_writes_nothing(self):
        self.login(self.clerk)
        events = AuditEvent.objects.count()
        for data, error in [
            ({"phone": "555", "how": "signed-form"}, "Enter a telephone number, like 608-555-0142"),
            ({"phone": "", "how": "signed-form"}, "This field is required."),
            ({"phone": "608-555-0142", "how": "text-reply"}, "Select a valid choice."),
        ]:
            response = self.client.post(self.page(), data)
            self.assertContains(response, error, status_code=400)
            self.assertContains(response, "There is a problem", status_code=400)
        self.assertFalse(TextConsent.objects.exists())
        self.assertEqual(AuditEvent.objects.count(), events)

    def test_a_number_already_consented_is_refused_naming_it(self):
        self.login(self.clerk)
        self.client.post(self.page(), {"phone": "608-555-0142", "how": "in-person"})
        response = self.client.post(self.page(), {"phone": "608 555 0142", "how": "in-person"})
        self.assertContains(response, "+16085550142 already has consent to texts on record.", status_code=400)
        self.assertEqual(TextConsent.objects.count(), 1)

    def test_the_clerk_ends_a_consent_and_the_history_keeps_it(self):
        self.login(self.clerk)
        self.client.post(self.page(), {"phone": "608-555-0142", "how": "signed-form"})
        consent = TextConsent.objects.get()
        self.assertEqual(self.client.get(f"/text-consents/{consent.pk}/stop/").status_code, 405)
        self.assertRedirects(self.client.post(f"/text-consents/{consent.pk}/stop/"), self.page())
        consent.refresh_from_db()
        self.assertEqual((consent.stopped_how, consent.stopped_by), ("by the clerk", self.clerk))
        self.assertTrue(AuditEvent.objects.filter(action="texts.opt_out", object_id=str(consent.pk)).exists())
        again = self.client.post(f"/text-consents/{consent.pk}/stop/")
        self.assertContains(again, "Texts to +16085550142 had already stopped.", status_code=400)
        self.assertEqual(AuditEvent.objects.filter(action="texts.opt_out").count(), 1)
        self.assertContains(self.client.get(f"/people/{self.owner.pk}/"), "(by the clerk, ")

    def test_a_role_that_does_not_manage_the_outbox_is_refused(self):
        self.login(self.officer)
        self.assertEqual(self.client.get(self.page()).status_code, 403)
        self.assertEqual(self.client.post(self.page(), {"phone": "6085550142", "how": "in-person"}).status_code, 403)
        self.assertFalse(TextConsent.objects.exists())


@on(date(2026, 3, 2))
class ResidentConsentTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(date(2026, 2, 10)):
            benton_license(cls)
        cls.pet_path = f"/pet/{links.pet_token(cls.dog.pk)}/"

    def opt_in(self, phone):
        return self.client.post(self.pet_path, {"texts": "start", "phone": phone})

    def test_the_owner_opts_in_with_the_words_shown_and_kept(self):
        page = self.client.get(self.pet_path)
        wording = "I agree to receive text messages from the Village of Benton clerk"
        self.assertContains(page, wording)
        self.assertContains(page, "I agree: text me at this number")
        self.assertRedirects(self.opt_in("608-555-0142"), self.pet_path)
        consent = TextConsent.objects.get()
        self.assertEqual(
            (consent.person, consent.phone, consent.how, consent.recorded_by),
            (self.owner, "+16085550142", "online", None),
        )
        self.assertTrue(consent.wording.startswith(wording))
        self.assertEqual(consent.consented_at.date(), date(2026, 3, 2))
        self.assertTrue(AuditEvent.objects.filter(action="texts.consent", actor=None).exists())
        page = self.client.get(self.pet_path)
        self.assertContains(page, "Renewal reminders also come by text message to +16085550142")
        self.assertContains(page, "as you agreed on March 2, 2026")
        self.login(self.clerk)
        staff = self.client.get(f"/people/{self.owner.pk}/texts/")
        self.assertContains(staff, "The person, online")
        self.assertContains(staff, "Words agreed to: “I agree to receive text messages")

    def test_a_bad_number_is_a_clear_error_and_writes_nothing(self):
        events = AuditEvent.objects.count()
        response = self.opt_in("12")
        self.assertContains(response, "Enter a telephone number, like 608-555-0142", status_code=400)
        self.assertContains(response, 'id="id_phone_error"', status_code=400)
        self.assertFalse(TextConsent.objects.exists())
        self.assertEqual(AuditEvent.objects.count(), events)

    def test_the_owner_opts_out(self):
        self.opt_in("608-555-0142")
        self.assertRedirects(self.client.post(self.pet_path, {"texts": "stop"}), self.pet_path)
        consent = TextConsent.objects.get()
        self.assertEqual((consent.stopped_how, consent.stopped_by), ("online", None))
        self.assertTrue(AuditEvent.objects.filter(action="texts.opt_out").exists())
        self.assertContains(self.client.get(self.pet_path), "I agree: text me at this number")

    def test_a_new_number_replaces_the_last_and_a_number_on_record_is_refused(self):
        self.opt_in("608-555-0142")
        self.assertContains(
            self.opt_in("608-555-0142"), "+16085550142 already receives these text messages.", status_code=400
        )  # a second tab's page, or the same number typed again
        self.client.post(self.pet_path, {"texts": "stop"})
        self.opt_in("608-555-0143")
        self.assertEqual(
            list(TextConsent.objects.filter(stopped_at=None).values_list("phone", flat=True)), ["+16085550143"]
        )

    def test_in_spanish(self):
        self.client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
        page = self.client.get(self.pet_path)
        self.assertContains(page, "Acepto: envíenme mensajes a este número")
        self.assertContains(self.opt_in("12"), "Número de celular", status_code=400)
        self.opt_in("608-555-0142")
        self.assertTrue(TextConsent.objects.get().wording.startswith("Acepto recibir mensajes de texto"))
