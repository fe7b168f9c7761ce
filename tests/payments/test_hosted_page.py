"""The second processor behind the same interface: a generic hosted payment page, redirect with
an HMAC-signed request, a signed notification posted back, the order re-read from its API."""

import time
from urllib.parse import parse_qs, urlencode, urlsplit

import requests

from dogtag.licensing.models import License
from dogtag.payments.models import Checkout, Notification
from dogtag.payments.providers.hosted_page import HostedPage, sign
from tests.base import on
from tests.payments.base import DAY, PaymentsTestCase
from tests.payments.support import Recorded, patch_env

HOSTED = {
    "DOGTAG_PROCESSOR_BENTON": "hosted",
    "DOGTAG_HOSTED_BENTON_URL": "https://pay.example-processor.test",
    "DOGTAG_HOSTED_BENTON_MERCHANT": "benton-clerk",
    "DOGTAG_HOSTED_BENTON_SECRET": "shared-secret-benton",
}
NOTIFY = "/payments/hosted/benton/notify/"


@on(DAY)
class HostedPageTests(PaymentsTestCase):
    def setUp(self):
        super().setUp()
        env = patch_env(HOSTED)
        env.start()
        self.addCleanup(env.stop)
        self.http = Recorded()
        self.addCleanup(setattr, HostedPage, "http", HostedPage.http)
        HostedPage.http = self.http

    def start(self) -> tuple[Checkout, dict]:
        app = self.sent_application()
        r = self.client.post(f"/pay/{app.token}/")
        self.assertEqual(r.status_code, 302)
        url = urlsplit(r["Location"])
        self.assertEqual((url.scheme, url.netloc, url.path), ("https", "pay.example-processor.test", "/pay"))
        fields = {k: v[0] for k, v in parse_qs(url.query).items()}
        return Checkout.objects.get(application=app), fields

    def notification(self, checkout, status="paid", amount="1000", secret=HOSTED["DOGTAG_HOSTED_BENTON_SECRET"]):
        fields = {"event_id": "n-1", "order": checkout.session_id, "status": status, "amount": amount,
                  "currency": "usd", "transaction": "txn-77", "timestamp": str(int(time.time()))}  # fmt: skip
        fields["signature"] = sign(secret, fields)
        return urlencode(fields)

    def post(self, body):
        with self.captureOnCommitCallbacks(execute=True):
            return self.client.post(NOTIFY, body, content_type="application/x-www-form-urlencoded")

    def test_it_signs_the_redirect_and_the_signed_notification_issues_the_license(self):
        checkout, fields = self.start()
        signature = fields.pop("signature")
        self.assertEqual(signature, sign("shared-secret-benton", fields))
        self.assertEqual((fields["amount"], fields["merchant"], fields["order"]), ("1000", "benton-clerk",
                         f"dogtag-benton-{checkout.pk}"))  # fmt: skip
        order = {"order": checkout.session_id, "status": "paid", "amount": 1000, "currency": "usd",
                 "transaction": "txn-77"}  # fmt: skip
        self.http.answer("GET", f"/orders/{checkout.session_id}", order)
        self.assertEqual(self.post(self.notification(checkout)).status_code, 200)
        license = License.objects.get(animal__name="Maple")
        self.assertEqual((license.payment.method, license.payment.card_reference), ("card", "txn-77"))
        (read,) = self.http.to("GET", "/orders/")
        self.assertEqual(read.headers["X-Merchant"], "benton-clerk")

    def test_a_forged_notification_is_refused_and_writes_nothing(self):
        checkout, _ = self.start()
        self.assertEqual(self.post(self.notification(checkout, secret="guess")).status_code, 400)
        self.assertEqual(self.post("order=x&status=paid").status_code, 400)
        self.assertEqual(Notification.objects.count(), 0)

    def test_a_timeout_on_the_reread_waits_and_an_amount_that_differs_is_refused(self):
        checkout, _ = self.start()
        self.http.answer("GET", "/orders/", raises=requests.exceptions.ReadTimeout("timed out"))
        self.post(self.notification(checkout))
        self.assertIsNone(Notification.objects.get().handled_at)
        self.http.answer("GET", "/orders/", {"order": checkout.session_id, "status": "paid", "amount": 900,
                                              "currency": "usd", "transaction": "txn-77"})  # fmt: skip
        self.http.answer("POST", "/orders/", {"id": "rf-1", "status": "succeeded"})
        from dogtag.payments.tasks import settle

        with self.captureOnCommitCallbacks(execute=True):
            settle(Notification.objects.get().pk)
        checkout.refresh_from_db()
        self.assertEqual(checkout.status, "refused")
        self.assertIn("$9.00 was paid but the law computes $10.00", checkout.outcome)
        (refund,) = self.http.to("POST", "/orders/")
        self.assertEqual(refund.data["amount"], "900")
