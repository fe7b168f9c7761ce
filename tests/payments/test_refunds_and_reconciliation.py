"""A card refund goes back through Stripe (a failed one is shown to the clerk and retried), and the
daily reconciliation lists every difference between Stripe's charges and refunds and the receipts."""

from datetime import timedelta

import requests
from django.utils import timezone

from dogtag.licensing import actions as licensing
from dogtag.licensing.models import License
from dogtag.payments import actions
from dogtag.payments.models import ProcessorRefund, Reconciliation
from dogtag.payments.tasks import reconcile_yesterday
from tests.base import on
from tests.payments.base import DAY, PaymentsTestCase
from tests.payments.support import BENTON_STRIPE, paid_session, recorded, stripe_event, stripe_signature

SECRET = BENTON_STRIPE["DOGTAG_STRIPE_BENTON_WEBHOOK_SECRET"]


def listed(url, *items):
    return {"object": "list", "data": list(items), "has_more": False, "url": url}


@on(DAY)
class RefundTests(PaymentsTestCase):
    def licensed(self) -> License:
        checkout = self.checkout(self.sent_application())
        self.stripe.answer("GET", "/v1/checkout/sessions/", paid_session(checkout))
        body = stripe_event("checkout.session.completed", paid_session(checkout))
        self.notify(body, stripe_signature(body, SECRET))
        return License.objects.get(animal__name="Maple")

    def void(self, license):
        with self.captureOnCommitCallbacks(execute=True):
            licensing.void_license(
                license, acting_user=self.clerk, reason="Issued twice", refund={"method": "card", "amount": "10.00"}
            )

    def test_voiding_with_a_card_refund_refunds_through_stripe(self):
        license = self.licensed()
        self.stripe.answer("POST", "/v1/refunds", recorded("refund"))
        self.void(license)
        (sent,) = self.stripe.to("POST", "/v1/refunds")
        self.assertEqual((sent.data["payment_intent"], sent.data["amount"]), ("pi_test_1", "1000"))
        refund = ProcessorRefund.objects.get()
        self.assertEqual(sent.headers["Idempotency-Key"], f"dogtag-refund-{refund.pk}")
        self.assertEqual(
            (refund.status, refund.processor_refund_id, refund.refund.amount), ("succeeded", "re_test_1", 10)
        )

    def test_a_failed_refund_is_shown_to_the_clerk_and_retried_by_the_worker(self):
        license = self.licensed()
        self.stripe.answer("POST", "/v1/refunds", recorded("error_balance_insufficient"), status=400)
        self.void(license)
        refund = ProcessorRefund.objects.get()
        self.assertEqual((refund.status, refund.attempts), ("failed", 1))
        self.assertIn("insufficient available funds", refund.error)
        self.login(self.clerk)
        r = self.client.get("/m/benton/online-payments/")
        self.assertContains(r, "Failed: being retried: Stripe refused: You have insufficient available funds")
        self.assertNotContains(r, "sk_test_benton")
        self.assertNotContains(r, "whsec_")
        # Another clerk's municipality cannot see or retry it.
        self.login(self.webster_clerk)
        self.assertEqual(self.client.get("/m/benton/online-payments/").status_code, 404)
        self.assertEqual(self.client.post(f"/online-payments/refunds/{refund.pk}/retry/").status_code, 404)
        # The worker's sweep, once Stripe takes it.
        self.stripe.answer("POST", "/v1/refunds", recorded("refund"))
        with self.captureOnCommitCallbacks(execute=True):
            self.assertEqual(
                actions.retry_waiting(timezone.now() + timedelta(minutes=10)), "0 notifications settled, 1 refunds sent"
            )
        refund.refresh_from_db()
        self.assertEqual((refund.status, refund.attempts), ("succeeded", 2))
        keys = {s.headers["Idempotency-Key"] for s in self.stripe.to("POST", "/v1/refunds")}
        self.assertEqual(keys, {f"dogtag-refund-{refund.pk}"})  # asking again cannot refund twice

    def test_the_clerk_can_send_a_failed_refund_again(self):
        license = self.licensed()
        self.stripe.answer("POST", "/v1/refunds", raises=requests.exceptions.ReadTimeout("timed out"))
        self.void(license)
        refund = ProcessorRefund.objects.get()
        self.assertIn("Stripe did not answer", refund.error)
        self.stripe.answer("POST", "/v1/refunds", recorded("refund"))
        self.login(self.clerk)
        with self.captureOnCommitCallbacks(execute=True):
            r = self.client.post(f"/online-payments/refunds/{refund.pk}/retry/")
        self.assertRedirects(r, "/m/benton/online-payments/")
        refund.refresh_from_db()
        self.assertEqual(refund.status, "succeeded")

    def test_the_reconciliation_lists_every_difference(self):
        self.licensed()
        charges = listed(
            "/v1/charges",
            recorded("charge", id="ch_test_1", payment_intent="pi_test_1", amount=1200),
            recorded("charge", id="ch_test_2", payment_intent="pi_test_nobody", amount=700),
        )
        refunds = listed("/v1/refunds", recorded("refund", id="re_test_9", payment_intent="pi_test_1", amount=200))
        self.stripe.answer("GET", "/v1/charges", charges, key="sk_test_benton")
        self.stripe.answer("GET", "/v1/refunds", refunds, key="sk_test_benton")
        self.stripe.answer("GET", "/v1/charges", listed("/v1/charges"), key="sk_test_webster")
        self.stripe.answer("GET", "/v1/refunds", listed("/v1/refunds"), key="sk_test_webster")
        with on(DAY + timedelta(days=1), hour=4):
            with self.captureOnCommitCallbacks(execute=True):
                self.assertEqual(reconcile_yesterday(), "benton: 3 differences; webster: 0 differences")
        asked = self.stripe.to("GET", "/v1/charges")[0]
        self.assertEqual(int(asked.data["created[lt]"]) - int(asked.data["created[gte]"]), 86400)
        day = Reconciliation.objects.get(municipality=self.benton)
        self.assertEqual((day.day, day.charges, day.refunds), (DAY, 2, 1))
        kinds = {d["kind"]: d for d in day.differences}
        self.assertEqual(set(kinds), {"amount-mismatch", "missing-receipt", "refund-not-recorded"})
        self.assertEqual((kinds["amount-mismatch"]["amount_processor"], kinds["amount-mismatch"]["amount_dogtag"]),
                         ("12.00", "10.00"))  # fmt: skip
        self.assertEqual(kinds["missing-receipt"]["reference"], "pi_test_nobody")
        self.login(self.clerk)
        r = self.client.get("/m/benton/online-payments/")
        self.assertContains(r, "The processor took this payment; Dogtag has no receipt.")
        self.assertContains(r, "3 differences")

    def test_a_matching_day_has_no_differences(self):
        self.licensed()
        self.stripe.answer("GET", "/v1/charges", listed("/v1/charges", recorded("charge")))
        self.stripe.answer("GET", "/v1/refunds", listed("/v1/refunds"))
        found = actions.reconcile(self.benton, DAY)
        self.assertEqual((found.charges, found.differences), (1, []))
