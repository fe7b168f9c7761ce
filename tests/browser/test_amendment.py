"""A clerk on a phone (390 px) drafts a change of Benton's license tax, previews it on the year's
licenses, exports the Board packet and the CSV, and adopts it once the Board has voted. Every
page state is checked by axe-core (conftest); the page never scrolls sideways."""

import io
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from dogtag.licensing.actions.fees import set_fee
from dogtag.registry.models import Amendment, Municipality
from tests.browser.test_registry import log_in
from tests.licensing.bulk import licensed_dogs

pytestmark = pytest.mark.django_db(transaction=True)
PAGE_WIDTH = "[document.documentElement.scrollWidth, window.innerWidth]"


def no_sideways_scroll(page):
    page.wait_for_load_state()
    scroll_width, window_width = page.evaluate(PAGE_WIDTH)
    assert scroll_width <= window_width, page.url


def test_a_clerk_drafts_previews_exports_and_adopts_a_fee_change(page, live_server):
    page.set_default_timeout(30_000)
    call_command("demo", stdout=io.StringIO())
    benton = Municipality.objects.get(slug="benton")
    clerk = get_user_model().objects.get(username="benton-clerk")
    for key, amount in (("license_tax.altered", "10.00"), ("license_tax.unaltered", "20.00")):
        set_fee(
            acting_user=clerk,
            municipality=benton,
            key=key,
            amount=Decimal(amount),
            effective_on=date(2020, 1, 1),
            authority="Resolution 2019-12",
        )
    licensed_dogs(benton, clerk, 12, year=2027)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server, "benton-clerk")
    page.goto(f"{live_server.url}/m/benton/reports/")
    page.get_by_role("link", name="Amendments of the ordinance").click()
    draft = page.get_by_role("link", name="Draft an amendment")
    expect(draft).to_be_visible()
    no_sideways_scroll(page)
    draft.click()
    page.get_by_label("What it changes").select_option("license_tax")
    page.get_by_label("Title").fill("Raise the license tax")
    page.get_by_label("Section amended").fill("§ 173-1")
    page.get_by_label("The amendment's words").fill(
        "The license tax shall be $12.00 for a spayed or neutered dog and $22.00 for any other dog."
    )
    page.get_by_label("Effective date").fill("2027-03-01")
    page.get_by_label("License tax, spayed or neutered ($)").fill("12.00")
    page.get_by_label("License tax, not spayed or neutered ($)").fill("22.00")
    page.get_by_role("button", name="Draft").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Raise the license tax")
    no_sideways_scroll(page)
    page.get_by_label("License year").fill("2027")
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_role("table", name="Revenue by category")).to_be_visible()
    expect(page.get_by_role("img", name="Owners by how much more or less they would pay a year")).to_be_visible()
    expect(page.get_by_text("12 licenses of 2027")).to_be_visible()
    no_sideways_scroll(page)
    pdf = page.request.get(page.url + page.get_by_role("link", name="Board packet (PDF)").get_attribute("href"))
    assert pdf.headers["content-type"] == "application/pdf"
    csv = page.request.get(page.url + page.get_by_role("link", name="CSV").get_attribute("href"))
    assert "Affected licenses" in csv.text()
    page.get_by_label("Resolution number").fill("2026-31")
    page.get_by_label("Date of the Board's vote").fill("2026-11-30")
    page.get_by_role("button", name="Adopt").click()
    expect(page.get_by_text("Board resolution 2026-31")).to_be_visible()
    no_sideways_scroll(page)
    assert Amendment.objects.get().adopted
