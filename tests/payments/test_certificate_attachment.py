"""The processor's notification issues the license and queues the resident's email naming the
certificate; the outbox renders the certificate when it sends, so the notification's transaction
renders no PDF. A renderer that fails leaves the message to be tried again."""

import io
from datetime import timedelta

import time_machine
from django.core import mail
from django.utils import timezone
from pypdf import PdfReader

from dogtag.licensing.documents import LICENSE_CERTIFICATE
from dogtag.licensing.models import License
from dogtag.outbox import sender
from dogtag.outbox.models import Message
from tests.base import on
from tests.payments.base import DAY, PaymentsTestCase
from tests.payments.support import BENTON_STRIPE, paid_session, stripe_event, stripe_signature

SECRET = BENTON_STRIPE["DOGTAG_STRIPE_BENTON_WEBHOOK_SECRET"]


def tagged_text(pdf: bytes) -> str:
    """The PDF's text, once it is shown to be tagged (PDF/UA: marked, with a structure tree)."""
    reader = PdfReader(io.BytesIO(pdf))
    root = reader.trailer["/Root"]
    assert "/StructTreeRoot" in root and root["/MarkInfo"]["/Marked"], "not a tagged PDF"
    return " ".join(page.extract_text() for page in reader.pages)


@on(DAY)
class CertificateAttachmentTests(PaymentsTestCase):
    def pay_online(self) -> License:
        app = self.sent_application()
        checkout = self.checkout(app)
        session = paid_session(checkout)
        self.stripe.answer("GET", f"/v1/checkout/sessions/{checkout.session_id}", session)
        body = stripe_event("checkout.session.completed", session, "evt_test_1")
        mail.outbox.clear()
        r = self.notify(body, stripe_signature(body, SECRET))
        self.assertEqual(r.status_code, 200)
        return License.objects.get(animal__name="Maple")

    def test_the_notification_queues_the_certificate_by_name_and_the_sent_mail_attaches_it(self):
        license = self.pay_online()
        message = Message.objects.get(to="dana@example.org", kind="application-approved")
        # Written by the notification's transaction: the document's name, no rendered bytes.
        self.assertEqual(message.attachment_document, LICENSE_CERTIFICATE)
        self.assertEqual(message.attachment_args, {"license": license.pk, "language": "en"})
        self.assertIsNone(message.attachment)
        self.assertIsNotNone(message.sent_at)  # sent by the outbox once the notification committed
        (email,) = [m for m in mail.outbox if m.to == ["dana@example.org"]]
        ((name, pdf, content_type),) = email.attachments
        self.assertEqual((name, content_type), (f"license-2026-{license.serial}.pdf", "application/pdf"))
        text = tagged_text(pdf)
        self.assertIn(f"2026 Dog License No. {license.serial}", text)
        self.assertIn("Maple", text)

    def test_a_renderer_that_fails_leaves_the_message_to_be_tried_again(self):
        license = self.pay_online()
        message = Message.objects.create(
            municipality=self.benton,
            to="dana@example.org",
            subject="Your license",
            text="Attached.",
            kind="test",
            attachment_name="license.pdf",
            attachment_document=LICENSE_CERTIFICATE,
            attachment_args={"license": license.pk + 1000, "language": "en"},  # no such license
        )
        mail.outbox.clear()
        self.assertEqual(sender.send([message.pk]), (0, 1))
        message.refresh_from_db()
        self.assertEqual((message.sent_at, message.dead_at, message.attempts), (None, None, 1))
        self.assertTrue(message.last_error.startswith("DoesNotExist"), message.last_error)
        self.assertGreater(message.next_attempt_at, timezone.now())
        self.assertEqual(mail.outbox, [])

        # The document can be rendered again (here: the message named the wrong license); the next
        # attempt, once its backoff has passed, sends it with the certificate.
        Message.objects.filter(pk=message.pk).update(attachment_args={"license": license.pk, "language": "es"})
        with time_machine.travel(message.next_attempt_at + timedelta(seconds=1)):
            self.assertEqual(sender.send([message.pk]), (1, 0))
        message.refresh_from_db()
        self.assertEqual((message.attempts, message.last_error), (2, ""))
        ((_, pdf, _),) = mail.outbox[0].attachments
        self.assertIn(f"Licencia de perro 2026 n.º {license.serial}", tagged_text(pdf))
