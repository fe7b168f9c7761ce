"""Issue 29 in the browser: a resident at Dogtag's address finds the public page (apply or
renew, found-dog lookup, office hours) with the staff login one link away (dead end 7); Cancel
after a refused submit leaves the form for the page the clerk came from (dead end 6)."""

import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.test_registry import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_resident_at_the_root_applies_and_staff_log_in_one_link_away(page, live_server):
    call_command("demo", stdout=io.StringIO())
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Pet licenses and found dogs")
    expect(page.get_by_role("link", name=re.compile("Found a dog"))).to_have_count(2)
    cedarburg = page.locator("li.office", has_text="City of Cedarburg")
    expect(cedarburg).to_contain_text("Dog and cat licenses")
    cedarburg.get_by_role("link", name="Apply or renew online").click()
    expect(page.get_by_label("Where do you live?")).to_have_value(re.compile(r"\d+"))
    expect(page.get_by_label("Where do you live?").locator("option:checked")).to_have_text("City of Cedarburg")
    page.get_by_role("link", name="Staff log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Log in to Dogtag")


def test_cancel_after_a_refused_submit_returns_to_the_page_the_clerk_came_from(page, live_server):
    call_command("demo", stdout=io.StringIO())
    log_in(page, live_server, "benton-clerk")
    home = page.url
    page.get_by_role("link", name="New person").click()
    page.get_by_role("button", name="Save").click()  # nothing filled in: refused
    expect(page.locator(".error-summary")).to_be_visible()
    page.get_by_role("link", name="Cancel").click()
    expect(page).to_have_url(home)
