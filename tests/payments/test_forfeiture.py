"""A citation's forfeiture paid online (issue 26 §7), where the municipality allows it: the amount
the citation sets (the rule engine's forfeiture, kept on it), one Stripe payment, recorded paid
through the citation's own action by the webhook, audited; anything else refused and refunded."""

from datetime import timedelta

from django.urls import reverse

from dogtag.audit.models import AuditEvent
from dogtag.enforcement import actions as enforcement
from dogtag.lib import links
from dogtag.payments.models import Checkout, ProcessorRefund
from dogtag.payments.views import citation_pay_path
from tests.base import on, text
from tests.enforcement.test_complaints import pdf_text
from tests.payments.base import DAY, PaymentsTestCase
from tests.payments.support import BENTON_STRIPE, paid_session, patch_env, recorded, stripe_event, stripe_signature

SECRET = BENTON_STRIPE["DOGTAG_STRIPE_BENTON_WEBHOOK_SECRET"]


@on(DAY)
class ForfeitureTests(PaymentsTestCase):
    def setUp(self):
        super().setUp()
        self.citation = enforcement.issue_citation(
            acting_user=self.officer, municipality=self.benton, person=self.owner, animal=self.dog,
            violation="s. 174.042", description="unlicensed", violated_on=DAY - timedelta(days=3),
        )  # fmt: skip
        self.path = citation_pay_path(self.citation)
        self.cents = str(int(self.citation.forfeiture * 100))

    def allowed(self):
        allowed = patch_env({"DOGTAG_ONLINE_FORFEITURES_BENTON": "true"})
        allowed.start()
        self.addCleanup(allowed.stop)

    def checkout(self) -> Checkout:
        url = "https://checkout.stripe.com/c/pay/cs_test_cit"
        self.stripe.answer("POST", "/v1/checkout/sessions", recorded("checkout_session", id="cs_test_cit", url=url))
        r = self.client.post(self.path)
        self.assertRedirects(r, url, fetch_redirect_response=False)
        return Checkout.objects.get(session_id="cs_test_cit")

    def notify(self, checkout, amount_cents=None, event_id="evt_cit_1"):
        session = paid_session(checkout, amount_cents=amount_cents)
        self.stripe.answer("GET", "/v1/checkout/sessions/cs_test_cit", session)
        body = stripe_event("checkout.session.completed", session, event_id)
        return super().notify(body, stripe_signature(body, SECRET))

    def test_where_the_municipality_allows_it_the_forfeiture_is_paid_online(self):
        self.allowed()
        self.assertGreater(self.citation.forfeiture, 0)
        page = self.client.get(self.path)
        self.assertContains(page, f"Pay ${self.citation.forfeiture} by card")
        checkout = self.checkout()
        self.assertEqual((checkout.citation, checkout.application, checkout.amount),
                         (self.citation, None, self.citation.forfeiture))  # fmt: skip
        (create,) = self.stripe.to("POST", "/v1/checkout/sessions")
        self.assertEqual(create.data["line_items[0][price_data][unit_amount]"], self.cents)
        self.assertNotIn("line_items[1][price_data][unit_amount]", create.data)
        self.assertNotIn("customer_email", create.data)

        self.assertEqual(self.notify(checkout).content, b"received")
        self.citation.refresh_from_db()
        self.assertEqual(self.citation.paid_on, DAY)
        checkout.refresh_from_db()
        self.assertEqual((checkout.status, checkout.reference), ("paid", "pi_test_1"))
        paid = AuditEvent.objects.get(action="citation.paid", object_id=str(self.citation.pk))
        self.assertEqual(paid.actor.username, "online-payments-benton")
        self.assertContains(self.client.get(self.path), "Nothing more is owed.")
        # A replay, and a second payment attempt, change nothing.
        self.assertEqual(self.notify(checkout).content, b"already received")
        self.assertEqual(AuditEvent.objects.filter(action="citation.paid").count(), 1)
        self.assertContains(self.client.post(self.path), "already paid", status_code=503)

    def test_an_amount_other_than_the_citations_is_refused_and_refunded(self):
        self.allowed()
        checkout = self.checkout()
        self.stripe.answer("POST", "/v1/refunds", recorded("refund", amount=100))
        self.notify(checkout, amount_cents=100)
        checkout.refresh_from_db()
        self.assertEqual(checkout.status, "refused")
        self.assertIn(f"$1.00 was paid but citation {self.citation.pk} sets ${self.citation.forfeiture}",
                      checkout.outcome)  # fmt: skip
        self.citation.refresh_from_db()
        self.assertIsNone(self.citation.paid_on)
        self.assertEqual(ProcessorRefund.objects.get().status, "succeeded")

    def test_not_online_unless_the_municipality_allows_it(self):
        self.assertContains(self.client.get(self.path), "not online")
        r = self.client.post(self.path)
        self.assertContains(r, "takes forfeitures at the court or the clerk", status_code=503)
        self.assertEqual(self.stripe.to("POST", "/v1/checkout/sessions"), [])
        self.assertFalse(Checkout.objects.exists())

    def test_a_changed_address_reaches_no_citation(self):
        self.allowed()
        self.assertEqual(self.client.get(self.path.replace(":", ";", 1)).status_code, 404)
        self.assertEqual(self.client.get("/pay-citation/1/").status_code, 404)


@on(DAY)
class PrintedOnTheCitationTests(PaymentsTestCase):
    """The citation's page and its PDF say how to pay: the signed address and its short form where
    the forfeiture is taken online, where to pay instead everywhere else; never a dead link."""

    def setUp(self):
        super().setUp()
        self.citation = enforcement.issue_citation(
            acting_user=self.officer, municipality=self.benton, person=self.owner, animal=self.dog,
            violation="s. 174.042", description="unlicensed", violated_on=DAY - timedelta(days=3),
        )  # fmt: skip
        self.login(self.officer)

    def printed(self) -> tuple[str, str]:
        page = text(self.client.get(reverse("case", args=[self.citation.case_id])))
        return page, pdf_text(self.client.get(reverse("citation-pdf", args=[self.citation.pk])))

    def test_where_it_is_taken_online_both_carry_the_address_and_its_short_form(self):
        with patch_env({"DOGTAG_ONLINE_FORFEITURES_BENTON": "true"}):
            page, pdf = self.printed()
            short = links.citation_short_url(self.citation.pk)
            for shown in (page, pdf):
                self.assertIn("Pay online by card at", shown)
                # The long address may break across the PDF's lines; the short one is kept whole.
                self.assertIn("http://testserver/pay-citation/", "".join(shown.split()))
                self.assertIn(short, shown)
            raw = self.client.get(reverse("case", args=[self.citation.case_id])).content.decode()
            signed = raw.split('href="http://testserver/pay-citation/', 1)[1].split('"', 1)[0]
            self.client.logout()
            # The printed address, and the short form typed from paper, reach the citation's page.
            self.assertContains(self.client.get(f"/pay-citation/{signed}"), f"Pay ${self.citation.forfeiture} by card")
            typed = short.removeprefix("http://testserver").lower().replace("0", "o")
            r = self.client.get(typed)
            self.assertEqual(r.status_code, 302)
            self.assertContains(self.client.get(r["Location"]), f"Pay ${self.citation.forfeiture} by card")

    def test_the_citation_number_is_read_as_forgivingly_as_the_check(self):
        # Whatever number the database gave: "O" for zero and "l" for one in the number too.
        for number in (10, 101, 2010):
            with self.subTest(number=number):
                code = links.citation_short_code(number)
                typed = code.lower().replace("0", "o").replace("1", "l")
                self.assertEqual(links.read_citation_short_code(typed), number)

    def test_a_mistyped_short_form_reaches_nothing(self):
        code = links.citation_short_code(self.citation.pk)
        wrong = code[:-1] + ("A" if code[-1] != "A" else "B")
        self.assertEqual(self.client.get(f"/c/{wrong}/").status_code, 404)
        other = f"{self.citation.pk + 1}{code[len(str(self.citation.pk)) :]}"
        self.assertEqual(self.client.get(f"/c/{other}/").status_code, 404)
        self.assertEqual(self.client.get("/c/nonsense/").status_code, 404)

    def test_where_it_is_not_taken_online_both_say_where_to_pay_instead(self):
        processor_gone = patch_env({"DOGTAG_PROCESSOR_BENTON": "", "DOGTAG_ONLINE_FORFEITURES_BENTON": "true"})
        for env in (patch_env({}), processor_gone):
            with self.subTest(env=env.values), env:
                for shown in self.printed():
                    self.assertIn("Benton does not take forfeitures online. Pay at the court or at the", shown)
                    self.assertIn("by cash or check", shown)
                    self.assertNotIn("/pay-citation/", shown)
                    self.assertNotIn("/c/", shown)

    def test_a_paid_or_void_citation_says_nothing_about_paying(self):
        with patch_env({"DOGTAG_ONLINE_FORFEITURES_BENTON": "true"}):
            enforcement.record_citation_paid(acting_user=self.clerk, citation=self.citation, paid_on=DAY)
            for shown in self.printed():
                self.assertNotIn("How to pay", shown)
                self.assertNotIn("/pay-citation/", shown)
