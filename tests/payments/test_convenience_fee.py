"""The card convenience fee (issue 26 §6): the municipality's own charge on its fee schedule, not
law. Shown before paying, charged as a Stripe line of its own, a receipt line of its own, kept
out of the license money in the day's close and out of the remittance, and refunded only where
the municipality says so."""

from decimal import Decimal

from django.template.loader import render_to_string

from dogtag.licensing import actions as licensing
from dogtag.licensing.models import FeeScheduleEntry, License
from dogtag.payments.models import Checkout, ProcessorRefund
from dogtag.reports import queries
from tests.base import on
from tests.payments.base import DAY, PaymentsTestCase
from tests.payments.support import BENTON_STRIPE, paid_session, patch_env, recorded, stripe_event, stripe_signature

SECRET = BENTON_STRIPE["DOGTAG_STRIPE_BENTON_WEBHOOK_SECRET"]
FEE = Decimal("1.50")


@on(DAY)
class ConvenienceFeeTests(PaymentsTestCase):
    def setUp(self):
        super().setUp()
        licensing.set_fee(
            acting_user=self.clerk, municipality=self.benton, key="card_convenience_fee", amount=FEE,
            effective_on=DAY, authority="Village Board resolution 2026-3",
        )  # fmt: skip

    def paid_license(self, amount_cents=1150, *, fee_refunded=False) -> tuple[Checkout, License | None]:
        app = self.sent_application()
        page = self.client.get(f"/pay/{app.token}/")
        self.assertContains(page, "card convenience fee of <strong>$1.50</strong>")
        (self.assertNotContains if fee_refunded else self.assertContains)(page, "and is not refunded")
        self.assertContains(page, "Pay $11.50 by card")
        checkout = self.checkout(app)
        self.assertEqual((checkout.amount, checkout.convenience_fee), (Decimal("11.50"), FEE))
        session = paid_session(checkout, amount_cents=amount_cents)
        self.stripe.answer("GET", f"/v1/checkout/sessions/{checkout.session_id}", session)
        body = stripe_event("checkout.session.completed", session)
        self.assertEqual(self.notify(body, stripe_signature(body, SECRET)).status_code, 200)
        checkout.refresh_from_db()
        return checkout, License.objects.filter(animal__name="Maple").first()

    def test_the_fee_is_its_own_line_and_never_license_money(self):
        checkout, license = self.paid_license()
        (create,) = self.stripe.to("POST", "/v1/checkout/sessions")
        self.assertEqual(create.data["line_items[0][price_data][unit_amount]"], "1000")
        self.assertEqual(create.data["line_items[1][price_data][unit_amount]"], "150")
        self.assertIn("card convenience fee", create.data["line_items[1][price_data][product_data][name]"])
        payment = license.payment
        self.assertEqual((payment.amount, payment.convenience_fee, license.total), (Decimal("10.00"), FEE, 10))
        self.assertEqual(checkout.paid_amount, Decimal("11.50"))

        receipt = render_to_string("licensing/receipt.html", {"license": license})
        self.assertIn("Card convenience fee", receipt)
        self.assertIn("$1.50", receipt)
        self.assertIn("not license tax, not remitted", receipt)

        close = queries.payments(self.benton, {"start": DAY, "end": DAY})
        by_method = close.tables[0]
        self.assertEqual(by_method.rows, [["Card", 1, Decimal("10.00")]])
        fees = next(t for t in close.tables if "convenience" in t.title)
        self.assertEqual(fees.rows, [[1, FEE]])
        self.assertIn("Card convenience fees received besides: $1.50, not counted above.", close.notes)

        remitted = queries.remittance(self.benton, {"start": DAY, "end": DAY})
        (row,) = remitted.tables[0].rows
        self.assertEqual(row[4], license.tax)  # the tax collected: the license's, not the card fee
        self.assertNotIn("1.50", " ".join(remitted.notes))

    def test_the_law_s_amount_alone_is_refused_when_a_fee_was_asked(self):
        self.stripe.answer("POST", "/v1/refunds", recorded("refund", amount=1000))
        checkout, license = self.paid_license(amount_cents=1000)
        self.assertIsNone(license)
        self.assertEqual(checkout.status, "refused")
        refused = "$10.00 was paid but the law computes $10.00 and the $1.50 card convenience fee"
        self.assertIn(refused, checkout.outcome)

    def void(self, license):
        self.stripe.answer("POST", "/v1/refunds", recorded("refund"))
        with self.captureOnCommitCallbacks(execute=True):
            licensing.void_license(
                license, acting_user=self.clerk, reason="Issued twice", refund={"method": "card", "amount": "10.00"}
            )
        (sent,) = self.stripe.to("POST", "/v1/refunds")
        return sent.data["amount"]

    def test_a_full_refund_keeps_the_fee_by_default(self):
        _, license = self.paid_license()
        self.assertEqual(self.void(license), "1000")
        self.assertEqual(ProcessorRefund.objects.get().amount, Decimal("10.00"))

    def test_a_full_refund_hands_the_fee_back_where_the_municipality_says_so(self):
        with patch_env({"DOGTAG_CONVENIENCE_FEE_REFUNDED_BENTON": "true"}):
            _, license = self.paid_license(fee_refunded=True)
            self.assertEqual(self.void(license), "1150")
        self.assertEqual(ProcessorRefund.objects.get().amount, Decimal("11.50"))

    def test_no_fee_set_no_fee_asked(self):
        entry = FeeScheduleEntry.objects.get(municipality=self.benton, key="card_convenience_fee")
        licensing.void_fee(entry, acting_user=self.clerk, reason="Repealed")
        app = self.sent_application()
        page = self.client.get(f"/pay/{app.token}/")
        self.assertNotContains(page, "convenience fee")
        self.assertContains(page, "Pay $10.00 by card")
        checkout = self.checkout(app)
        self.assertEqual((checkout.amount, checkout.convenience_fee), (Decimal("10.00"), 0))
        (create,) = self.stripe.to("POST", "/v1/checkout/sessions")
        self.assertNotIn("line_items[1][price_data][unit_amount]", create.data)
