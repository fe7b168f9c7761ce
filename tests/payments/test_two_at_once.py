"""Two notifications for one payment at the same instant, each on its own thread and database
connection (committed transactions, not the test's one): one payment, one license."""

import threading

import stripe
from django.db import connection
from django.test import Client, TransactionTestCase

from dogtag.licensing import actions as licensing
from dogtag.licensing.models import License, Payment
from dogtag.payments.models import Checkout, Notification
from dogtag.portal.models import Application
from tests.base import Fixtures, on
from tests.licensing.base import BENTON_FEES, set_fees
from tests.payments.base import DAY, WEBHOOK
from tests.payments.support import (
    BENTON_STRIPE,
    install_stripe,
    paid_session,
    patch_env,
    recorded,
    stripe_event,
    stripe_signature,
)
from tests.portal.helpers import FULL, upload

SECRET = BENTON_STRIPE["DOGTAG_STRIPE_BENTON_WEBHOOK_SECRET"]


@on(DAY)
class TwoAtOnceTests(TransactionTestCase):
    def setUp(self):
        Fixtures.build(self)
        set_fees(self.clerk, self.benton, BENTON_FEES)
        licensing.receive_tag_lot(
            acting_user=self.clerk, municipality=self.benton, license_year=2026, first_serial=501, last_serial=510
        )
        env = patch_env(BENTON_STRIPE)
        env.start()
        self.addCleanup(env.stop)
        self.stripe = install_stripe()
        self.addCleanup(setattr, stripe, "default_http_client", None)
        client = Client()
        client.post("/apply/", {"municipality": self.benton.pk, "email": "dana@example.org"})
        app = Application.objects.get(email="dana@example.org")
        client.post(f"/apply/a/{app.token}/", {**FULL, "step": "review", "rabies_certificate_file": upload()})
        client.post(f"/apply/a/{app.token}/review/", {"provider": "card"})
        self.stripe.answer("POST", "/v1/checkout/sessions", recorded("checkout_session"))
        client.post(f"/pay/{app.token}/")
        self.checkout = Checkout.objects.get(application=app)
        self.stripe.answer("GET", "/v1/checkout/sessions/cs_test_a1", paid_session(self.checkout))

    def at_once(self, bodies):
        barrier = threading.Barrier(len(bodies))
        answers, failures = [], []

        def post(body):
            try:
                barrier.wait(timeout=30)
                r = Client().post(
                    WEBHOOK, body, content_type="application/json", HTTP_STRIPE_SIGNATURE=stripe_signature(body, SECRET)
                )
                answers.append(r.status_code)
            except Exception as e:  # noqa: BLE001 - reported by the assertion below
                failures.append(repr(e))
            finally:
                connection.close()

        threads = [threading.Thread(target=post, args=(b,)) for b in bodies]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        self.assertEqual(failures, [])
        return answers

    def test_two_notifications_for_one_payment_at_the_same_instant_make_one_payment(self):
        session = paid_session(self.checkout)
        answers = self.at_once(
            [
                stripe_event("checkout.session.completed", session, "evt_test_1"),
                stripe_event("checkout.session.async_payment_succeeded", session, "evt_test_2"),
            ]
        )
        self.assertEqual(answers, [200, 200])
        self.assertEqual(Payment.objects.filter(method="card").count(), 1)
        self.assertEqual(License.objects.filter(animal__name="Maple").count(), 1)
        self.assertEqual(
            sorted(Notification.objects.values_list("outcome", flat=True)),
            ["Paid; license 501 issued.", "checkout already paid"],
        )

    def test_the_same_event_twice_at_the_same_instant_is_stored_once(self):
        body = stripe_event("checkout.session.completed", paid_session(self.checkout), "evt_test_1")
        self.assertEqual(self.at_once([body, body]), [200, 200])
        self.assertEqual(Notification.objects.count(), 1)
        self.assertEqual(Payment.objects.filter(method="card").count(), 1)
