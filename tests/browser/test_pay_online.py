"""A resident renews on a phone and pays by card: apply -> the processor's page (a test stand-in
for Stripe's, tests/payments/test_processor.py) -> Stripe's signed notification -> the license
is issued and emailed. The real `stripe` SDK runs, its HTTP answered from recorded responses."""

import os
import re
from datetime import timedelta
from html import escape
from pathlib import Path

import pytest
import stripe
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from dogtag.enforcement import actions as enforcement
from dogtag.lib import links
from dogtag.licensing import actions as licensing
from dogtag.licensing.models import License
from dogtag.outbox.models import Message
from dogtag.outbox.sender import attachment_of
from dogtag.payments.models import Checkout
from dogtag.registry.models import today
from tests.browser.test_portal import PHONE, benton_dog, cash
from tests.payments.support import BENTON_STRIPE, install_stripe, paid_session, patch_env, recorded

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = Path(os.environ.get("DOGTAG_SHOTS") or Path(__file__).resolve().parent.parent / "screenshots")


def test_a_resident_pays_online_and_the_notification_issues_the_license(page, live_server, settings):
    settings.DOGTAG_BASE_URL = live_server.url
    settings.ROOT_URLCONF = "tests.payments.urls"
    env = patch_env(BENTON_STRIPE)
    env.start()
    transport = install_stripe()
    try:
        clerk, benton, dog = benton_dog()
        this_year = licensing.issue_license(dog, acting_user=clerk, payment=cash(dog))
        licensing.start_renewal_run(acting_user=clerk, municipality=benton, license_year=this_year.license_year + 1)
        link = re.search(r"(http\S+/renew/\S+/)", Message.objects.get(kind="renewal-notice").text).group(1)
        page_url = f"{live_server.url}/test-processor/checkout/cs_test_a1/"
        transport.answer("POST", "/v1/checkout/sessions", recorded("checkout_session", url=page_url))
        transport.answer(
            "GET",
            "/v1/checkout/sessions/cs_test_a1",
            lambda: paid_session(Checkout.objects.get(session_id="cs_test_a1")),
        )

        SHOTS.mkdir(exist_ok=True)
        page.set_viewport_size(PHONE)
        page.goto(link)
        page.get_by_role("button", name="Check the cost").click()
        page.get_by_label("Pay now by card").check()
        page.screenshot(path=SHOTS / "pay-online-1-review-390.png", full_page=True)
        page.get_by_role("button", name="Send my application").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("Pay by card")
        page.screenshot(path=SHOTS / "pay-online-2-pay-390.png", full_page=True)
        pay_page = page.url
        page.goto(pay_page + "household/")
        expect(page.get_by_role("heading", level=1)).to_contain_text("Pay for all your animals by card")
        page.screenshot(path=SHOTS / "pay-online-2b-cart-390.png", full_page=True)
        page.goto(pay_page)
        page.get_by_role("button", name="Pay $10.00 by card").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Test card processor")
        expect(page.locator("input")).to_have_count(0)  # no card number here either: the stand-in takes none
        page.screenshot(path=SHOTS / "pay-online-3-processor-390.png", full_page=True)
        page.get_by_role("button", name="Pay $10.00").click()
        expect(page.get_by_text("License issued")).to_be_visible()
        page.screenshot(path=SHOTS / "pay-online-4-licensed-390.png", full_page=True)
        application_page = page.url.split("?")[0]

        renewed = License.objects.get(animal=dog, license_year=this_year.license_year + 1)
        assert (renewed.payment.method, renewed.payment.card_reference) == ("card", "pi_test_1")
        assert renewed.payment.received_by.username == "online-payments-benton"
        expect(page.get_by_text(f"Your license number is {renewed.serial}")).to_be_visible()
        approved = Message.objects.get(kind="application-approved", to="pat@example.org")
        assert attachment_of(approved).startswith(b"%PDF")
        # The email the resident receives, with the license certificate attached, as a phone's
        # mail client shows it (its HTML part, on a blank page: the site's CSP refuses inline
        # styles): it fits 390 px, its link named in words and leading to the application.
        page.goto("about:blank")
        page.set_content(f'<meta name="viewport" content="width=device-width"><h1>{escape(approved.subject)}</h1>'
                         f"{approved.html}")  # fmt: skip
        scroll_width, width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert scroll_width <= width
        link = page.get_by_role("link", name="Your application")
        assert link.get_attribute("href") == application_page
        page.screenshot(path=SHOTS / "pay-online-5-email-390.png", full_page=True)
    finally:
        env.stop()
        stripe.default_http_client = None


def test_a_forfeiture_is_paid_online_from_the_short_address_printed_on_the_citation(page, live_server, settings):
    settings.DOGTAG_BASE_URL = live_server.url
    settings.ROOT_URLCONF = "tests.payments.urls"
    env = patch_env(BENTON_STRIPE, {"DOGTAG_ONLINE_FORFEITURES_BENTON": "true"})
    env.start()
    transport = install_stripe()
    try:
        clerk, benton, dog = benton_dog()
        officer = get_user_model().objects.get(username="officer")
        citation = enforcement.issue_citation(
            acting_user=officer, municipality=benton, person=dog.ownerships.get().person, animal=dog,
            violation="s. 174.042", description="unlicensed", violated_on=today() - timedelta(days=3),
        )  # fmt: skip
        page_url = f"{live_server.url}/test-processor/checkout/cs_test_a1/"
        transport.answer("POST", "/v1/checkout/sessions", recorded("checkout_session", url=page_url))
        transport.answer(
            "GET",
            "/v1/checkout/sessions/cs_test_a1",
            lambda: paid_session(Checkout.objects.get(session_id="cs_test_a1")),
        )
        SHOTS.mkdir(exist_ok=True)
        page.set_viewport_size(PHONE)
        # Typed from paper, in lower case.
        page.goto(links.citation_short_url(citation.pk).lower())
        pay = f"Pay ${citation.forfeiture} by card"
        expect(page.get_by_role("button", name=pay)).to_be_visible()
        page.screenshot(path=SHOTS / "pay-online-6-citation-390.png", full_page=True)
        page.get_by_role("button", name=pay).click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Test card processor")
        page.get_by_role("button", name=f"Pay ${citation.forfeiture}").click()
        expect(page.get_by_text("Nothing more is owed.")).to_be_visible()
        page.screenshot(path=SHOTS / "pay-online-7-citation-paid-390.png", full_page=True)
        citation.refresh_from_db()
        assert citation.paid_on == today()
    finally:
        env.stop()
        stripe.default_http_client = None
