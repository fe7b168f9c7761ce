from datetime import date

from dogtag.audit.models import AuditEvent
from dogtag.licensing import actions as licensing
from dogtag.licensing.models import License
from dogtag.outbox.models import Message
from dogtag.portal.models import Application
from dogtag.registry.models import Animal, Person
from tests.base import BaseTestCase, on
from tests.licensing.base import BENTON_FEES, set_fees
from tests.portal.helpers import FULL, MEDIA, PNG, confirm_address, smtp_server, upload

DAY = date(2026, 2, 10)


@MEDIA
@on(DAY)
class ApplyTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(DAY):
            set_fees(cls.clerk, cls.benton, BENTON_FEES)
            licensing.receive_tag_lot(
                acting_user=cls.clerk, municipality=cls.benton, license_year=2026, first_serial=501, last_serial=510
            )

    def test_it_says_the_licensable_age_in_the_packs_figures(self):
        r = self.client.get("/apply/")
        self.assertContains(r, "Every dog more than 5 months of age needs a license")
        self.assertNotContains(r, "five months")

    def start(self):
        with self.captureOnCommitCallbacks(execute=True):
            r = self.client.post("/apply/", {"municipality": self.benton.pk, "email": "dana@example.org"})
        app = Application.objects.get(email="dana@example.org")
        self.assertRedirects(r, f"/apply/a/{app.token}/")
        confirm_address(self.client, app)  # the first email's link (tests/portal/test_confirm_email.py)
        return app

    def fill(self, app, step="review", **overrides):
        data = {**FULL, "step": step, "rabies_certificate_file": upload(), **overrides}
        with self.captureOnCommitCallbacks(execute=True):
            return self.client.post(f"/apply/a/{app.token}/", data)

    def test_it_emails_the_link_and_keeps_a_draft_with_bad_input(self):
        with smtp_server() as inbox:
            app = self.start()
        (message,) = inbox.to("dana@example.org")
        self.assertIn(f"/apply/a/{app.token}/", inbox.text(message))
        r = self.fill(app, step="save", birth_date="", rabies_certificate_file=upload("cert.txt", b"hello"))
        self.assertContains(r, "Upload a photo (JPEG or PNG) or a PDF.")
        app.refresh_from_db()
        self.assertEqual(app.data["animal_name"], "Maple")  # what was typed is kept
        self.assertFalse(app.rabies_certificate)  # the bad file is not
        # Coming back through the link: the answers are there; checking shows each problem beside its field.
        r = self.client.get(f"/apply/a/{app.token}/")
        self.assertContains(r, 'value="Maple"')
        r = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertContains(r, "This field is required.")
        self.assertContains(r, "Upload a photo or PDF of the rabies certificate.")
        self.assertEqual(Animal.objects.filter(name="Maple").count(), 0)

    def test_it_shows_the_cost_in_plain_words_then_the_clerk_approves(self):
        app = self.start()
        r = self.fill(app)
        self.assertRedirects(r, f"/apply/a/{app.token}/review/")
        r = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertContains(r, "Your dog&#x27;s license costs $10.00 because it is not spayed or neutered — Benton §")
        with smtp_server() as inbox:
            with self.captureOnCommitCallbacks(execute=True):
                r = self.client.post(f"/apply/a/{app.token}/review/", {"provider": "counter"})
        self.assertRedirects(r, f"/apply/a/{app.token}/")
        app.refresh_from_db()
        self.assertEqual((app.status, app.payment_status), ("submitted", "awaiting"))
        self.assertIn("$10.00", inbox.text(inbox.to("dana@example.org")[0]))

        self.login(self.clerk)
        r = self.client.get("/m/benton/applications/")
        self.assertContains(r, "Maple")
        r = self.client.get(f"/applications/{app.pk}/")
        self.assertContains(r, "Rabies certificate (uploaded)")
        self.assertEqual(self.client.get(f"/applications/{app.pk}/certificate/").status_code, 200)
        events = AuditEvent.objects.count()
        with smtp_server() as inbox:
            with self.captureOnCommitCallbacks(execute=True):
                r = self.client.post(
                    f"/applications/{app.pk}/", {"decision": "approve", "method": "cash", "amount": "10.00"}
                )
        license = License.objects.get(animal__name="Maple")
        self.assertRedirects(r, f"/licenses/{license.pk}/")
        self.assertEqual((license.serial, license.tax, license.holder.name), (501, 10, "Dana Doe"))
        self.assertEqual(license.vaccination.certificate_serial, "R-2001")
        app.refresh_from_db()
        self.assertEqual((app.status, app.license), ("approved", license))
        (mail,) = inbox.to("dana@example.org")
        self.assertIn("license number 501", inbox.text(mail))
        (pdf,) = [p for p in mail.iter_attachments()]
        self.assertEqual(pdf.get_content_type(), "application/pdf")
        self.assertTrue(pdf.get_content().startswith(b"%PDF"))
        actions = set(AuditEvent.objects.order_by("pk")[events:].values_list("action", flat=True))
        self.assertTrue(
            {"person.create", "animal.create", "vaccination.create", "license.issue", "application.approve"} <= actions
        )
        self.assertContains(self.client.get(f"/apply/a/{app.token}/"), "License issued")

    def test_spayed_needs_the_evidence_and_costs_less(self):
        app = self.start()
        self.fill(app, altered="on")
        r = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertContains(r, "Upload the evidence that your dog is spayed or neutered")
        self.fill(app, altered="on", altered_evidence_file=upload("proof.png", PNG))
        r = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertContains(r, "costs $5.00 because it is spayed or neutered")

    def test_an_expired_certificate_is_named_beside_its_field(self):
        app = self.start()
        self.fill(app, vaccinated_on="2024-06-10", expires_on="2025-06-10")
        r = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertContains(r, "Rabies certificate R-2001 expired on June 9, 2025")
        self.assertContains(r, 'id="id_expires_on_error"')

    def test_rejecting_emails_the_reason_and_writes_no_record(self):
        app = self.start()
        self.fill(app)
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(f"/apply/a/{app.token}/review/", {"provider": "counter"})
        self.login(self.clerk)
        r = self.client.post(f"/applications/{app.pk}/", {"decision": "reject", "reason": ""})
        self.assertContains(r, "This field is required.")
        with smtp_server() as inbox:
            with self.captureOnCommitCallbacks(execute=True):
                self.client.post(
                    f"/applications/{app.pk}/", {"decision": "reject", "reason": "The certificate photo is unreadable."}
                )
        self.assertIn("The certificate photo is unreadable.", inbox.text(inbox.to("dana@example.org")[0]))
        app.refresh_from_db()
        self.assertEqual(app.status, "rejected")
        self.assertFalse(Person.objects.filter(name="Dana Doe").exists())

    def test_another_municipalitys_clerk_cannot_see_or_decide(self):
        app = self.start()
        self.login(self.webster_clerk)
        self.assertEqual(self.client.get(f"/applications/{app.pk}/").status_code, 404)
        self.assertEqual(
            self.client.post(f"/applications/{app.pk}/", {"decision": "reject", "reason": "x"}).status_code, 404
        )
        self.assertEqual(Message.objects.filter(kind="application-rejected").count(), 0)
