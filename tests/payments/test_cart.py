"""A household's cart (issue 26 §7): a Cedarburg resident pays for two dogs and a cat (Cedarburg
licenses cats, § 7-1-3(a)(1)) in one Stripe Checkout; the webhook issues each license in the
settling's one transaction; an animal that cannot be licensed is refunded or left for the clerk
alone, without holding back the others."""

from decimal import Decimal

from dogtag.lib import links
from dogtag.licensing import actions as licensing
from dogtag.licensing.models import License, Payment
from dogtag.payments.models import Checkout, ProcessorRefund
from dogtag.portal import actions as portal
from dogtag.portal.models import Application
from tests.base import on
from tests.payments.base import DAY, PaymentsTestCase
from tests.payments.support import paid_session, patch_env, recorded, stripe_event, stripe_signature
from tests.portal.helpers import FULL, upload

CEDARBURG_STRIPE = {
    "DOGTAG_PROCESSOR_CEDARBURG": "stripe",
    "DOGTAG_STRIPE_CEDARBURG_SECRET_KEY": "sk_test_cedarburg",
    "DOGTAG_STRIPE_CEDARBURG_WEBHOOK_SECRET": "whsec_cedarburg_test",
}
SECRET = CEDARBURG_STRIPE["DOGTAG_STRIPE_CEDARBURG_WEBHOOK_SECRET"]
WEBHOOK = "/payments/stripe/cedarburg/webhook/"
ANIMALS = [
    {"animal_name": "Maple", "species": "dog", "certificate_serial": "R-2001", "rabies_tag_number": "RT-901"},
    {"animal_name": "Birch", "species": "dog", "certificate_serial": "R-2002", "rabies_tag_number": "RT-902",
     "altered": "on"},
    {"animal_name": "Whiskers", "species": "cat", "breed": "Domestic shorthair", "certificate_serial": "R-2003",
     "rabies_tag_number": "RT-903"},
]  # fmt: skip


@on(DAY)
class CartTests(PaymentsTestCase):
    def setUp(self):
        super().setUp()
        env = patch_env(CEDARBURG_STRIPE)
        env.start()
        self.addCleanup(env.stop)

    def stock(self, count):
        licensing.receive_tag_lot(
            acting_user=self.outsider, municipality=self.cedarburg, license_year=2026, first_serial=1,
            last_serial=count,
        )  # fmt: skip

    def household(self, confirmed=(True, True, True), emails=("dana@example.org",) * 3) -> list[Application]:
        sent = []
        for animal, confirm, email in zip(ANIMALS, confirmed, emails, strict=True):
            app = portal.start_application(municipality=self.cedarburg, email=email, license_year=2026)
            if confirm:
                portal.confirm_email(app, links.confirmation_code(app))
            with self.captureOnCommitCallbacks(execute=True):
                post = {**FULL, "city": "Cedarburg", "postal_code": "53012", "step": "review",
                        "rabies_certificate_file": upload(), **animal}  # fmt: skip
                if animal.get("altered"):
                    post["altered_evidence_file"] = upload("spay.pdf")
                self.client.post(f"/apply/a/{app.token}/", post)
                r = self.client.post(f"/apply/a/{app.token}/review/", {"provider": "card"})
            self.assertRedirects(r, f"/pay/{app.token}/", fetch_redirect_response=False)
            app.refresh_from_db()
            self.assertEqual(app.data["species"], animal["species"])
            sent.append(app)
        return sent

    def cart(self, first) -> Checkout:
        page = self.client.get(f"/pay/{first.token}/")
        self.assertContains(page, "Pay for all 3 at once")
        page = self.client.get(f"/pay/{first.token}/household/")
        for name in ("Maple", "Birch", "Whiskers", "2026 cat license", "Pay $25.00 by card"):
            self.assertContains(page, name)
        url = "https://checkout.stripe.com/c/pay/cs_test_cart"
        self.stripe.answer("POST", "/v1/checkout/sessions", recorded("checkout_session", id="cs_test_cart", url=url))
        r = self.client.post(f"/pay/{first.token}/household/")
        self.assertRedirects(r, url, fetch_redirect_response=False)
        return Checkout.objects.get(session_id="cs_test_cart")

    def settle(self, checkout):
        session = paid_session(checkout)
        self.stripe.answer("GET", "/v1/checkout/sessions/cs_test_cart", session)
        body = stripe_event("checkout.session.completed", session, "evt_cart_1")
        with self.captureOnCommitCallbacks(execute=True):
            r = self.client.post(WEBHOOK, body, content_type="application/json",
                                 HTTP_STRIPE_SIGNATURE=stripe_signature(body, SECRET))  # fmt: skip
        self.assertEqual(r.status_code, 200)
        checkout.refresh_from_db()

    def test_two_dogs_and_a_cat_in_one_checkout_each_licensed(self):
        self.stock(10)
        apps = self.household()
        checkout = self.cart(apps[0])
        self.assertEqual((checkout.amount, checkout.items.count()), (Decimal("25.00"), 3))
        (create,) = self.stripe.to("POST", "/v1/checkout/sessions")
        self.assertEqual(create.headers["Authorization"], "Bearer sk_test_cedarburg")
        lines = [(create.data[f"line_items[{i}][price_data][unit_amount]"],
                  create.data[f"line_items[{i}][price_data][product_data][name]"]) for i in range(3)]  # fmt: skip
        self.assertEqual([amount for amount, _ in lines], ["1000", "500", "1000"])
        self.assertIn("2026 cat license — Whiskers", lines[2][1])
        self.assertNotIn("line_items[3][price_data][unit_amount]", create.data)

        self.settle(checkout)
        self.assertEqual(checkout.status, "paid")
        outcomes = list(checkout.items.values_list("outcome", flat=True))
        self.assertEqual(checkout.outcome, "Paid for 3 of 3; 3 licenses issued.", outcomes)
        licenses = License.objects.filter(municipality=self.cedarburg).order_by("serial")
        self.assertEqual([(lic.animal_name, lic.species) for lic in licenses],
                         [("Maple", "dog"), ("Birch", "dog"), ("Whiskers", "cat")])  # fmt: skip
        payments = Payment.objects.filter(municipality=self.cedarburg)
        self.assertEqual(sorted(p.amount for p in payments), [5, 10, 10])
        self.assertEqual({p.card_reference for p in payments}, {"pi_test_1"})
        for app in apps:
            app.refresh_from_db()
            self.assertEqual((app.status, app.payment_status), ("approved", "paid"))
        self.assertEqual(ProcessorRefund.objects.count(), 0)

    def test_one_animal_that_cannot_be_licensed_does_not_hold_back_the_others(self):
        self.stock(1)  # one tag left: the second animal's license cannot be issued
        apps = self.household()
        checkout = self.cart(apps[0])
        # Meanwhile the clerk rejects the cat's application: its part is refunded through Stripe.
        portal.reject_application(apps[2], acting_user=self.outsider, reason="Whiskers lives in Grafton.")
        self.stripe.answer("POST", "/v1/refunds", recorded("refund", amount=1000))
        self.settle(checkout)
        self.assertEqual(checkout.status, "paid")
        self.assertEqual(checkout.outcome, "Paid for 2 of 3; 1 licenses issued. 1 refunded.")
        outcomes = list(checkout.items.values_list("application__data__animal_name", "outcome"))
        self.assertEqual(outcomes[0], ("Maple", "Paid; license 1 issued."))
        self.assertEqual(outcomes[1][0], "Birch")
        self.assertTrue(outcomes[1][1].startswith("Paid; waiting for the clerk:"), outcomes[1][1])
        self.assertEqual(outcomes[2], ("Whiskers", "Refunded: the application is not approved."))
        (refund,) = self.stripe.to("POST", "/v1/refunds")
        self.assertEqual((refund.data["payment_intent"], refund.data["amount"]), ("pi_test_1", "1000"))
        self.assertEqual(ProcessorRefund.objects.get().reason, "Part of a cart not licensed: Whiskers")
        birch = Application.objects.get(pk=apps[1].pk)
        self.assertEqual((birch.status, birch.payment_status, birch.quoted_total), ("submitted", "paid", 5))
        self.assertEqual(License.objects.filter(municipality=self.cedarburg).count(), 1)

    def test_a_token_whose_address_is_not_confirmed_shows_only_its_own_animal(self):
        # Someone starts an application with Dana's address without reading her mail: the token
        # is in their browser, but Dana's two waiting animals are not shown, nor can they be paid.
        stranger, *dana = self.household(confirmed=(False, True, True))
        page = self.client.get(f"/pay/{stranger.token}/")
        self.assertNotContains(page, "at once")
        page = self.client.get(f"/pay/{stranger.token}/household/")
        self.assertContains(page, "Maple")
        for name in ("Birch", "Whiskers"):
            self.assertNotContains(page, name)
        self.stripe.answer("POST", "/v1/checkout/sessions", recorded("checkout_session", id="cs_one"))
        self.client.post(f"/pay/{stranger.token}/household/")
        self.assertEqual(Checkout.objects.get(session_id="cs_one").items.count(), 1)
        # Dana, from her confirmed address, sees her two animals and not the stranger's.
        page = self.client.get(f"/pay/{dana[0].token}/household/")
        self.assertContains(page, "Birch")
        self.assertContains(page, "Whiskers")
        self.assertNotContains(page, "Maple")

    def test_the_cart_shows_the_animals_and_nothing_of_the_owner(self):
        apps = self.household(emails=("dana@example.org", "DANA@example.org", "pat@example.org"))
        page = self.client.get(f"/pay/{apps[0].token}/household/")
        self.assertContains(page, "Birch")  # the same mailbox, however its address is capitalized
        self.assertNotContains(page, "Whiskers")  # another address, even in the same municipality
        for owner_detail in (FULL["name"], FULL["street"], "R-2002", "RT-902", "dana@example.org"):
            self.assertNotContains(page, owner_detail)
