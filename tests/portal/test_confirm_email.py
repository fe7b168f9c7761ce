"""Issue 27 §5, through the real middleware stack: starting an application is throttled per
client address and per email address, and the address typed on the portal gets one email, the
one asking to confirm it, until the resident follows its link."""

import re
from datetime import date, timedelta
from urllib.parse import urlsplit

import time_machine
from django.test import override_settings
from django.utils import timezone

from dogtag.audit.models import AuditEvent
from dogtag.licensing import actions as licensing
from dogtag.outbox.models import Message
from dogtag.portal.models import Application
from tests.base import BaseTestCase, on
from tests.licensing.base import BENTON_FEES, set_fees
from tests.portal.helpers import FULL, MEDIA, upload

DAY = date(2026, 2, 10)


@MEDIA
@on(DAY)
class ConfirmAndThrottleTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(DAY):
            set_fees(cls.clerk, cls.benton, BENTON_FEES)
            licensing.receive_tag_lot(
                acting_user=cls.clerk, municipality=cls.benton, license_year=2026, first_serial=501, last_serial=510
            )

    def start(self, email="dana@example.org", address="203.0.113.5"):
        with self.captureOnCommitCallbacks(execute=True):
            return self.client.post("/apply/", {"municipality": self.benton.pk, "email": email}, REMOTE_ADDR=address)

    def test_the_address_is_confirmed_before_anything_else_is_sent(self):
        self.assertEqual(self.start().status_code, 302)
        app = Application.objects.get(email="dana@example.org")
        (started,) = Message.objects.filter(to="dana@example.org")
        link = re.search(r"https?://\S+/confirm/\S+/", started.text).group(0)
        self.assertIn(f"/apply/a/{app.token}/confirm/", link)
        self.assertIn("we send nothing else to this address", started.text)
        self.assertIsNone(app.email_confirmed_at)
        self.assertContains(self.client.get(f"/apply/a/{app.token}/"), "to confirm your address")
        # Sent without confirming: nothing more is emailed.
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(f"/apply/a/{app.token}/", {**FULL, "step": "review", "rabies_certificate_file": upload()})
            r = self.client.post(f"/apply/a/{app.token}/review/", {"provider": "counter"})
        self.assertRedirects(r, f"/apply/a/{app.token}/")
        self.assertEqual(
            list(Message.objects.filter(to="dana@example.org").values_list("kind", flat=True)), [started.kind]
        )
        # A forged or another application's code is refused, and confirms nothing.
        r = self.client.get(f"/apply/a/{app.token}/confirm/not-a-code/")
        self.assertEqual(r.status_code, 400)
        self.assertContains(r, "not valid", status_code=400)
        app.refresh_from_db()
        self.assertIsNone(app.email_confirmed_at)
        # The resident follows the link: confirmed and audited, once however often it is followed.
        r = self.client.get(urlsplit(link).path)
        self.assertRedirects(r, f"/apply/a/{app.token}/", fetch_redirect_response=False)
        self.client.get(urlsplit(link).path)
        app.refresh_from_db()
        self.assertIsNotNone(app.email_confirmed_at)
        self.assertEqual(
            AuditEvent.objects.filter(action="application.confirm_email", object_id=str(app.pk)).count(), 1
        )
        # Now the clerk's decision reaches the resident.
        self.login(self.clerk)
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(f"/applications/{app.pk}/", {"decision": "approve", "method": "cash", "amount": "10.00"})
        self.assertTrue(Message.objects.filter(to="dana@example.org", kind="application-approved").exists())

    @override_settings(DOGTAG_APPLICATION_EMAIL_LIMIT=3, DOGTAG_APPLICATION_LIMIT=10)
    def test_one_email_address_gets_at_most_the_limit_of_links_whoever_asks(self):
        for n in range(3):
            self.assertEqual(self.start(address=f"198.51.100.{n}").status_code, 302)
        r = self.start(address="198.51.100.9")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "We have already emailed 3 application links to this address within 60 minutes")
        self.assertEqual(Message.objects.filter(to="dana@example.org").count(), 3)
        self.assertEqual(Application.objects.filter(email="dana@example.org").count(), 3)
        self.assertEqual(self.start(email="DANA@example.org").status_code, 200)  # the same mailbox
        with time_machine.travel(timezone.now() + timedelta(minutes=61)):
            self.assertEqual(self.start().status_code, 302)  # a new window

    @override_settings(DOGTAG_APPLICATION_EMAIL_LIMIT=3, DOGTAG_APPLICATION_LIMIT=5)
    def test_one_client_address_starts_at_most_the_limit_whatever_it_types(self):
        for n in range(5):
            self.assertEqual(self.start(email=f"victim{n}@example.org").status_code, 302)
        r = self.start(email="victim9@example.org")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "More than 5 applications were started from your address within 60 minutes")
        self.assertEqual(Message.objects.count(), 5)
        self.assertEqual(self.start(email="victim9@example.org", address="192.0.2.1").status_code, 302)

    def test_a_renewal_is_emailed_at_the_owners_address_on_record(self):
        from dogtag.portal import actions

        self.owner.email = "pat@example.org"
        self.owner.save()
        with self.captureOnCommitCallbacks(execute=True):
            app = actions.start_renewal(self.dog, 2026)
        self.assertIsNotNone(app.email_confirmed_at)
        (started,) = Message.objects.filter(to="pat@example.org")
        self.assertNotIn("/confirm/", started.text)
