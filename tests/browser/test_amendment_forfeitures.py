"""A clerk on a phone (390 px) drafts a new forfeiture schedule for Webster (§ 98-20), previews it
on the year's citations and exports the CSV. Every page state is checked by axe-core (conftest);
the page never scrolls sideways."""

import io
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from dogtag.enforcement import actions as enforcement
from dogtag.registry import actions as registry
from dogtag.registry.models import Municipality
from tests.base import on
from tests.browser.test_amendment import no_sideways_scroll
from tests.browser.test_registry import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_clerk_drafts_and_previews_a_forfeiture_schedule(page, live_server):
    page.set_default_timeout(30_000)
    call_command("demo", stdout=io.StringIO())
    webster = Municipality.objects.get(slug="webster")
    users = get_user_model().objects
    with on(date(2026, 11, 20)):
        person = registry.create_person(
            acting_user=users.get(username="webster-clerk"),
            municipality=webster,
            name="Sam Cited",
            street="4 Elm St",
            city="Webster",
            postal_code="54893",
        )
        for violation, day in (("98-15", date(2026, 2, 3)), ("98-1", date(2026, 3, 4))):
            enforcement.issue_citation(
                acting_user=users.get(username="officer"),
                municipality=webster,
                person=person,
                violation=violation,
                description="as observed",
                violated_on=day,
            )
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server, "webster-clerk")
    page.goto(f"{live_server.url}/m/webster/amendments/new/")
    page.get_by_label("What it changes").select_option("forfeiture_schedule")
    page.get_by_label("Title").fill("Raise the forfeitures of § 98-20")
    page.get_by_label("Section amended").fill("§ 98-20")
    page.get_by_label("The amendment's words").fill(
        "Any person violating §§ 98-15, 98-16, 98-17, 98-18, 98-19 or 98-23 shall be subject to a forfeiture "
        "of not less than $150 and not more than $600."
    )
    page.get_by_label("Effective date").fill("2027-01-01")
    page.get_by_label("Violation whose forfeiture schedule it sets").fill("98-15")
    page.get_by_label("Forfeiture, not less than ($)").fill("600.00")
    page.get_by_label("Forfeiture, not more than ($)").fill("150.00")
    page.get_by_role("button", name="Draft").click()
    expect(page.locator("#id_minimum_error")).to_contain_text("violation 98-15, 98-16, 98-17, 98-18, 98-19, 98-23")
    page.get_by_label("Forfeiture, not less than ($)").fill("150.00")
    page.get_by_label("Forfeiture, not more than ($)").fill("600.00")
    page.get_by_role("button", name="Draft").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Raise the forfeitures")
    no_sideways_scroll(page)
    page.get_by_label("Year of the violations").fill("2026")
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_role("table", name="Citations that would cost more or less")).to_be_visible()
    expect(page.get_by_text("2 citations of 2026")).to_be_visible()
    no_sideways_scroll(page)
    csv = page.request.get(page.url + page.get_by_role("link", name="CSV").get_attribute("href"))
    assert "Affected citations" in csv.text()
