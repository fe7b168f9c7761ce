"""Review mode (the municipality's setting): the clerk decides an application paid online. The
receipt is dated when the processor took the money, not when the clerk approves; an application
the clerk rejects is refunded through the processor, once, audited."""

from datetime import timedelta
from decimal import Decimal

from django.utils import timezone

from dogtag.audit.models import AuditEvent
from dogtag.licensing.models import License
from dogtag.payments import actions
from dogtag.payments.models import ProcessorRefund
from dogtag.portal.models import Application
from tests.base import on
from tests.payments.base import DAY, PaymentsTestCase
from tests.payments.support import BENTON_STRIPE, paid_session, patch_env, recorded, stripe_event, stripe_signature

SECRET = BENTON_STRIPE["DOGTAG_STRIPE_BENTON_WEBHOOK_SECRET"]
LATER = DAY + timedelta(days=3)


class ReviewModeTests(PaymentsTestCase):
    def setUp(self):
        super().setUp()
        review = patch_env({"DOGTAG_ONLINE_REVIEW_BENTON": "true"})
        review.start()
        self.addCleanup(review.stop)

    def paid_for_review(self) -> Application:
        with on(DAY, hour=21):  # paid at night; the clerk's office is closed
            app = self.sent_application()
            checkout = self.checkout(app)
            self.stripe.answer("GET", f"/v1/checkout/sessions/{checkout.session_id}", paid_session(checkout))
            body = stripe_event("checkout.session.completed", paid_session(checkout))
            self.notify(body, stripe_signature(body, SECRET))
            self.paid_at = timezone.now()
        app.refresh_from_db()
        self.assertEqual((app.status, app.payment_status, app.paid_at), ("submitted", "paid", self.paid_at))
        self.assertFalse(License.objects.filter(animal__name="Maple").exists())
        return app

    def test_the_receipt_is_dated_when_the_money_arrived(self):
        app = self.paid_for_review()
        with on(LATER):
            self.login(self.clerk)
            with self.captureOnCommitCallbacks(execute=True):
                self.client.post(f"/applications/{app.pk}/", {"decision": "approve"})
        license = License.objects.get(animal__name="Maple")
        self.assertEqual(license.issued_on, LATER)
        payment = license.payment
        self.assertEqual((payment.method, payment.amount, payment.card_reference), ("card", 10, "pi_test_1"))
        self.assertEqual(payment.received_at, self.paid_at)
        self.assertEqual(timezone.localdate(payment.received_at), DAY)
        self.assertEqual(payment.receipt_year, DAY.year)

    def test_a_rejected_application_is_refunded_through_the_processor_once(self):
        app = self.paid_for_review()
        self.stripe.answer("POST", "/v1/refunds", recorded("refund"))
        with on(LATER):
            self.login(self.clerk)
            with self.captureOnCommitCallbacks(execute=True):
                r = self.client.post(
                    f"/applications/{app.pk}/", {"decision": "reject", "reason": "Maple lives in Webster, not Benton."}
                )
            self.assertEqual(r.status_code, 302)
        app.refresh_from_db()
        self.assertEqual(app.status, "rejected")
        (sent,) = self.stripe.to("POST", "/v1/refunds")
        refund = ProcessorRefund.objects.get()
        self.assertEqual((sent.data["payment_intent"], sent.data["amount"]), ("pi_test_1", "1000"))
        self.assertEqual(sent.headers["Idempotency-Key"], f"dogtag-refund-{refund.pk}")
        self.assertEqual((refund.status, refund.amount, refund.refund), ("succeeded", Decimal("10.00"), None))
        self.assertEqual(refund.reason, "Application rejected: Maple lives in Webster, not Benton.")
        audited = list(AuditEvent.objects.filter(object_id=str(refund.pk)).values_list("action", flat=True))
        self.assertIn("payments.refund_queue", audited)
        self.assertIn("payments.refund_succeeded", audited)
        # Asked again (a second signal, a retry): the same refund, nothing sent again.
        with self.captureOnCommitCallbacks(execute=True):
            self.assertEqual(actions.refund_rejected(app), refund)
        self.assertEqual(ProcessorRefund.objects.count(), 1)
        self.assertEqual(len(self.stripe.to("POST", "/v1/refunds")), 1)

    def test_an_application_paid_at_the_counter_and_rejected_sends_nothing(self):
        with on(DAY):
            app = self.sent_application()
            Application.objects.filter(pk=app.pk).update(payment_status=Application.PaymentStatus.AWAITING)
            self.login(self.clerk)
            with self.captureOnCommitCallbacks(execute=True):
                self.client.post(f"/applications/{app.pk}/", {"decision": "reject", "reason": "Not our resident."})
        self.assertEqual(Application.objects.get(pk=app.pk).status, "rejected")
        self.assertFalse(ProcessorRefund.objects.exists())
        self.assertEqual(self.stripe.to("POST", "/v1/refunds"), [])
