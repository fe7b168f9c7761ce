"""A Benton application sent to be paid by card, with Benton (and Webster) connected to Stripe
test accounts through the environment, and the SDK answered from recorded responses."""

from datetime import date

import stripe

from dogtag.licensing import actions as licensing
from dogtag.payments.models import Checkout
from dogtag.portal.models import Application
from tests.base import BaseTestCase, on
from tests.licensing.base import BENTON_FEES, set_fees
from tests.payments.support import BENTON_STRIPE, WEBSTER_STRIPE, install_stripe, patch_env, recorded
from tests.portal.helpers import FULL, confirm_address, upload

DAY = date(2026, 2, 10)
WEBHOOK = "/payments/stripe/benton/webhook/"


class PaymentsTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(DAY):
            set_fees(cls.clerk, cls.benton, BENTON_FEES)
            licensing.receive_tag_lot(
                acting_user=cls.clerk, municipality=cls.benton, license_year=2026, first_serial=501, last_serial=510
            )

    def setUp(self):
        super().setUp()
        self.env = patch_env(BENTON_STRIPE, WEBSTER_STRIPE)
        self.env.start()
        self.addCleanup(self.env.stop)
        self.stripe = install_stripe()
        self.addCleanup(setattr, stripe, "default_http_client", None)

    def sent_application(self, **overrides) -> Application:
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post("/apply/", {"municipality": self.benton.pk, "email": "dana@example.org"})
        app = Application.objects.get(email="dana@example.org")
        confirm_address(self.client, app)
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(
                f"/apply/a/{app.token}/", {**FULL, "step": "review", "rabies_certificate_file": upload(), **overrides}
            )
            r = self.client.post(f"/apply/a/{app.token}/review/", {"provider": "card"})
        self.assertRedirects(r, f"/pay/{app.token}/", fetch_redirect_response=False)
        app.refresh_from_db()
        return app

    def checkout(self, app, session_id="cs_test_a1") -> Checkout:
        """Press "Pay by card": the SDK creates the Checkout Session; the browser goes to its page."""
        url = f"https://checkout.stripe.com/c/pay/{session_id}"
        answer = recorded("checkout_session", id=session_id, url=url)
        self.stripe.answer("POST", "/v1/checkout/sessions", answer)
        r = self.client.post(f"/pay/{app.token}/")
        self.assertRedirects(r, url, fetch_redirect_response=False)
        return Checkout.objects.get(application=app, session_id=session_id)

    def notify(self, body: str, signature: str | None, path=WEBHOOK):
        headers = {"HTTP_STRIPE_SIGNATURE": signature} if signature is not None else {}
        with self.captureOnCommitCallbacks(execute=True):
            return self.client.post(path, body, content_type="application/json", **headers)
