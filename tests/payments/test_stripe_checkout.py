"""Stripe Checkout end to end, the SDK answered from recorded responses: the resident is sent to
Stripe's page, the signed webhook (verified by `stripe.Webhook.construct_event`) decides, the
session is re-read from Stripe, and the license is issued through the licensing action."""

from datetime import timedelta
from decimal import Decimal

import requests
from django.utils import timezone

from dogtag.audit.models import AuditEvent
from dogtag.lib import links
from dogtag.licensing.models import License, Payment
from dogtag.outbox.models import Message
from dogtag.payments import actions
from dogtag.payments.models import Checkout, Notification, ProcessorRefund
from dogtag.portal.models import Application
from tests.base import on
from tests.payments.base import DAY, PaymentsTestCase
from tests.payments.support import BENTON_STRIPE, paid_session, patch_env, recorded, stripe_event, stripe_signature

SECRET = BENTON_STRIPE["DOGTAG_STRIPE_BENTON_WEBHOOK_SECRET"]


@on(DAY)
class StripeCheckoutTests(PaymentsTestCase):
    def paid(self, checkout, **kw):
        session = paid_session(checkout, **kw)
        self.stripe.answer("GET", f"/v1/checkout/sessions/{checkout.session_id}", session)
        return session

    def completed(self, checkout, event_id="evt_test_1", kind="checkout.session.completed", **kw):
        body = stripe_event(kind, paid_session(checkout, **kw), event_id)
        return body, stripe_signature(body, SECRET)

    def test_it_sends_the_resident_to_stripe_and_the_webhook_issues_the_license(self):
        app = self.sent_application()
        self.assertEqual((app.status, app.payment_status, app.quoted_total), ("submitted", "online", Decimal("10.00")))
        self.assertContains(self.client.get(f"/pay/{app.token}/"), "Pay $10.00 by card")
        checkout = self.checkout(app)
        (create,) = self.stripe.to("POST", "/v1/checkout/sessions")
        self.assertEqual(create.headers["Authorization"], "Bearer sk_test_benton")
        self.assertEqual(create.headers["Idempotency-Key"], f"dogtag-checkout-{checkout.pk}")
        self.assertEqual(create.data["line_items[0][price_data][unit_amount]"], "1000")
        self.assertEqual(create.data["line_items[0][price_data][currency]"], "usd")
        self.assertEqual(create.data["metadata[municipality]"], "benton")
        self.assertEqual(create.data["success_url"], links.absolute(f"/apply/a/{app.token}/"))
        self.assertNotIn("card", " ".join(k for k in create.data if "number" in k))

        # Back from Stripe before the webhook: the return page only shows the state.
        r = self.client.get(f"/apply/a/{app.token}/")
        self.assertContains(r, "We have not yet received the card processor")
        self.assertFalse(License.objects.filter(animal__name="Maple").exists())

        self.paid(checkout)
        body, signature = self.completed(checkout)
        r = self.notify(body, signature)
        self.assertEqual((r.status_code, r.content), (200, b"received"))
        license = License.objects.get(animal__name="Maple")
        payment = license.payment
        self.assertEqual(
            (payment.method, payment.amount, payment.card_reference), ("card", Decimal("10.00"), "pi_test_1")
        )
        self.assertEqual(payment.received_by.username, "online-payments-benton")
        self.assertFalse(payment.received_by.is_active)
        self.assertFalse(payment.received_by.has_usable_password())
        checkout.refresh_from_db()
        self.assertEqual((checkout.status, checkout.payment, checkout.reference), ("paid", payment, "pi_test_1"))
        app.refresh_from_db()
        self.assertEqual((app.status, app.payment_status, app.license), ("approved", "paid", license))
        (read,) = self.stripe.to("GET", "/v1/checkout/sessions/cs_test_a1")
        self.assertEqual(read.headers["Authorization"], "Bearer sk_test_benton")
        actions_written = set(AuditEvent.objects.values_list("action", flat=True))
        self.assertTrue(
            {"notification.receive", "notification.handle", "application.paid_online", "payment.record",
             "license.issue", "application.approve", "checkout.paid"} <= actions_written
        )  # fmt: skip
        self.assertTrue(Message.objects.filter(to="dana@example.org", kind="application-approved").exists())
        self.assertContains(self.client.get(f"/apply/a/{app.token}/"), "License issued")

    def test_a_forged_or_missing_signature_is_refused_and_writes_nothing(self):
        checkout = self.checkout(self.sent_application())
        self.paid(checkout)
        body, _ = self.completed(checkout)
        events = AuditEvent.objects.count()
        for signature in (
            None,
            "",
            stripe_signature(body, "whsec_someone_else"),
            stripe_signature(body, SECRET, at=int(timezone.now().timestamp()) - 3600),  # outside the tolerance
            "t=1,v1=deadbeef",
        ):
            r = self.notify(body, signature)
            self.assertEqual(r.status_code, 400, signature)
        tampered = body.replace('"amount_total": 1000', '"amount_total": 1')
        self.assertEqual(self.notify(tampered, stripe_signature(body, SECRET)).status_code, 400)
        self.assertEqual(Notification.objects.count(), 0)
        self.assertEqual(AuditEvent.objects.count(), events)
        self.assertEqual(self.stripe.to("GET", "/v1/checkout/sessions/"), [])
        self.assertFalse(License.objects.exists() and License.objects.filter(animal__name="Maple").exists())

    def test_a_replayed_event_changes_nothing(self):
        checkout = self.checkout(self.sent_application())
        self.paid(checkout)
        body, signature = self.completed(checkout)
        self.assertEqual(self.notify(body, signature).content, b"received")
        events = AuditEvent.objects.count()
        r = self.notify(body, stripe_signature(body, SECRET))
        self.assertEqual((r.status_code, r.content), (200, b"already received"))
        self.assertEqual(AuditEvent.objects.count(), events)
        self.assertEqual(Notification.objects.count(), 1)
        self.assertEqual(Payment.objects.filter(method="card").count(), 1)
        self.assertEqual(len(self.stripe.to("GET", "/v1/checkout/sessions/")), 1)

    def test_a_second_event_for_the_same_payment_and_one_out_of_order_change_nothing(self):
        checkout = self.checkout(self.sent_application())
        self.paid(checkout)
        self.notify(*self.completed(checkout))
        body = stripe_event("checkout.session.async_payment_succeeded", paid_session(checkout), "evt_test_2")
        self.assertEqual(self.notify(body, stripe_signature(body, SECRET)).content, b"received")
        expired = stripe_event("checkout.session.expired", recorded("checkout_session", id=checkout.session_id,
                               status="expired"), "evt_test_3")  # fmt: skip
        self.notify(expired, stripe_signature(expired, SECRET))
        self.assertEqual(Payment.objects.filter(method="card").count(), 1)
        self.assertEqual(License.objects.filter(animal__name="Maple").count(), 1)
        checkout.refresh_from_db()
        self.assertEqual(checkout.status, "paid")
        self.assertEqual(
            sorted(Notification.objects.values_list("outcome", flat=True)),
            ["Paid; license 501 issued.", "checkout already paid", "checkout already paid"],
        )

    def test_an_amount_that_differs_from_the_fee_is_refused_and_refunded(self):
        app = self.sent_application()
        checkout = self.checkout(app)
        self.paid(checkout, amount_cents=500)
        self.stripe.answer("POST", "/v1/refunds", recorded("refund", amount=500))
        self.notify(*self.completed(checkout, amount_cents=500))
        checkout.refresh_from_db()
        self.assertEqual(checkout.status, "refused")
        self.assertIn("$5.00 was paid but the law computes $10.00 for this application on 2026-02-10", checkout.outcome)
        self.assertFalse(License.objects.filter(animal__name="Maple").exists())
        self.assertFalse(Payment.objects.filter(method="card").exists())
        app.refresh_from_db()
        self.assertEqual(app.payment_status, "online")
        (refund,) = self.stripe.to("POST", "/v1/refunds")
        self.assertEqual((refund.data["payment_intent"], refund.data["amount"]), ("pi_test_1", "500"))
        self.assertEqual(ProcessorRefund.objects.get().status, "succeeded")

    def test_a_payment_in_another_currency_is_refused(self):
        checkout = self.checkout(self.sent_application())
        self.paid(checkout, currency="cad")
        self.stripe.answer("POST", "/v1/refunds", recorded("refund"))
        self.notify(*self.completed(checkout))
        checkout.refresh_from_db()
        self.assertEqual((checkout.status, checkout.outcome), ("refused", "paid in CAD, not USD"))

    def test_a_notification_for_another_municipalitys_account_is_refused(self):
        checkout = self.checkout(self.sent_application())
        self.paid(checkout)
        body, _ = self.completed(checkout)
        # Signed with Webster's secret, posted to Benton's address; and Benton's event posted to Webster's.
        self.assertEqual(self.notify(body, stripe_signature(body, "whsec_webster_test")).status_code, 400)
        r = self.notify(body, stripe_signature(body, "whsec_webster_test"), path="/payments/stripe/webster/webhook/")
        self.assertEqual(r.status_code, 400)
        self.assertIn(b"for benton's checkout, not Town of Webster's", r.content.replace(b"Village", b"Town"))
        # Signed with Webster's own secret, naming no municipality, but Benton's checkout session.
        bare = stripe_event("checkout.session.completed", {**paid_session(checkout), "metadata": {}}, "evt_test_9")
        r = self.notify(bare, stripe_signature(bare, "whsec_webster_test"), path="/payments/stripe/webster/webhook/")
        self.assertEqual(r.status_code, 400)
        self.assertIn(b"another municipality's checkout", r.content)
        # Connected through a platform: an event of another Stripe account is refused.
        with patch_env({"DOGTAG_STRIPE_BENTON_ACCOUNT": "acct_benton"}):
            other = stripe_event("checkout.session.completed", paid_session(checkout), "evt_test_8", account="acct_x")
            r = self.notify(other, stripe_signature(other, SECRET))
        self.assertEqual(r.status_code, 400)
        self.assertIn(b"acct_x", r.content)
        self.assertEqual(Notification.objects.count(), 0)
        # A municipality with no Stripe account has no webhook address.
        r = self.client.post("/payments/stripe/cedarburg/webhook/", body, content_type="application/json")
        self.assertEqual(r.status_code, 404)

    def test_a_timeout_on_start_charges_nothing_and_says_so(self):
        app = self.sent_application()
        self.stripe.answer("POST", "/v1/checkout/sessions", raises=requests.exceptions.ReadTimeout("read timed out"))
        r = self.client.post(f"/pay/{app.token}/")
        self.assertContains(r, "The card processor did not answer. Nothing was charged", status_code=503)
        checkout = Checkout.objects.get(application=app)
        self.assertEqual(checkout.status, "expired")
        self.assertIn("Stripe did not answer", checkout.outcome)
        # Trying again once Stripe answers opens a new checkout.
        self.checkout(app, session_id="cs_test_b2")

    def test_a_timeout_on_the_reread_leaves_the_notification_for_the_worker(self):
        app = self.sent_application()
        checkout = self.checkout(app)
        self.stripe.answer("GET", "/v1/checkout/sessions/", raises=requests.exceptions.ConnectTimeout("timed out"))
        r = self.notify(*self.completed(checkout))
        self.assertEqual(r.status_code, 200)  # stored: Stripe need not send it again
        notification = Notification.objects.get()
        self.assertIsNone(notification.handled_at)
        self.assertFalse(License.objects.filter(animal__name="Maple").exists())
        # The worker's sweep, once Stripe answers again.
        self.paid(checkout)
        with self.captureOnCommitCallbacks(execute=True):
            self.assertEqual(actions.retry_waiting(timezone.now() + timedelta(minutes=10)),
                             "1 notifications settled, 0 refunds sent")  # fmt: skip
        notification.refresh_from_db()
        self.assertIsNotNone(notification.handled_at)
        self.assertTrue(License.objects.filter(animal__name="Maple").exists())

    def test_the_clerk_reviews_first_where_the_municipality_says_so(self):
        with patch_env({"DOGTAG_ONLINE_REVIEW_BENTON": "true"}):
            app = self.sent_application()
            checkout = self.checkout(app)
            self.paid(checkout)
            self.notify(*self.completed(checkout))
        app.refresh_from_db()
        self.assertEqual((app.status, app.payment_status, app.payment_reference), ("submitted", "paid", "pi_test_1"))
        self.assertFalse(License.objects.filter(animal__name="Maple").exists())
        self.assertContains(self.client.get(f"/apply/a/{app.token}/"), "Your payment of $10.00 was received.")
        self.login(self.clerk)
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(f"/applications/{app.pk}/", {"decision": "approve"})
        license = License.objects.get(animal__name="Maple")
        self.assertEqual((license.payment.method, license.payment.card_reference), ("card", "pi_test_1"))

    def test_a_payment_for_an_application_the_clerk_already_approved_is_refunded(self):
        app = self.sent_application()
        checkout = self.checkout(app)
        self.login(self.clerk)
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(f"/applications/{app.pk}/", {"decision": "approve", "method": "cash", "amount": "10.00"})
        self.paid(checkout)
        self.stripe.answer("POST", "/v1/refunds", recorded("refund"))
        self.notify(*self.completed(checkout))
        checkout.refresh_from_db()
        self.assertEqual(checkout.status, "refused")
        self.assertIn("the application is license issued", checkout.outcome)
        self.assertEqual(Payment.objects.filter(licenses__animal__name="Maple").get().method, "cash")
        self.assertEqual(ProcessorRefund.objects.get().status, "succeeded")

    def test_no_form_takes_a_card_number(self):
        app = self.sent_application()
        for url in (f"/apply/a/{app.token}/", f"/pay/{app.token}/"):
            self.assertNotContains(self.client.get(url), "card_number")
        with patch_env({"DOGTAG_PROCESSOR_BENTON": ""}):
            self.assertEqual(self.client.post(f"/apply/a/{app.token}/review/").status_code, 302)
            self.assertEqual(Application.objects.get(pk=app.pk).payment_status, "online")
