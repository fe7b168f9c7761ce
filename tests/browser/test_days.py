"""The clerk's and the officer's days in real Chromium: a clerk's first day in a new municipality
(its setup steps, then December sales of next year's license, then a void with a refund), a bite
by a stray linked to the dog once found, and each main page saved at desktop and phone size."""

import io
import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from dogtag.enforcement.models import Case
from dogtag.licensing.models import License, Refund
from dogtag.registry import actions as registry
from dogtag.registry.models import Animal, Municipality
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_registry import log_in

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}


def sampson_dog():
    """A Sampson owner and dog with a current certificate, written as the demo clerk would."""
    clerk = get_user_model().objects.get(username="sampson-clerk")
    sampson = Municipality.objects.get(slug="sampson")
    today = timezone.localdate()
    owner = registry.create_person(acting_user=clerk, municipality=sampson, name="Gail Farmer",
                                   street="N1234 County Rd", city="Sampson", postal_code="54729")  # fmt: skip
    dog = registry.register_animal(acting_user=clerk, municipality=sampson, owner=owner, name="Ranger",
                                   sex="male", breed="Collie", color="sable",
                                   birth_date=today - timedelta(days=900))  # fmt: skip
    registry.record_vaccination(dog, acting_user=clerk, certificate_serial="S-1",
                                vaccinated_on=today - timedelta(days=20), vaccine_type="killed virus, 3-year",
                                vaccine_serial="L-1",
                                expires_on=today + timedelta(days=1000), veterinarian_name="Dr. V",
                                veterinarian_address="1 Rd", veterinarian_phone="1",
                                rabies_tag_number="RT-S1")  # fmt: skip
    return dog


def december():
    """Travel to December (today if it is December): forward, never back, so the browser's
    clock never sees the server's session cookie as expired."""
    now = timezone.localtime()
    day = now if now.month == 12 else now.replace(month=12, day=1, hour=10)
    return time_machine.travel(day, tick=True)


@december()
def test_a_clerks_first_day_december_sales_and_a_void_with_refund(page, live_server):
    page.set_default_navigation_timeout(30_000)  # the first page of a fresh server on a busy machine
    call_command("demo", stdout=io.StringIO())
    dog = sampson_dog()
    year = timezone.localdate().year
    log_in(page, live_server, "sampson-clerk")
    expect(page.get_by_role("heading", name=re.compile("Setting up"))).to_be_visible()

    # The fee schedule: every amount the ordinance leaves to the town.
    page.get_by_role("link", name="Set the fee schedule").click()
    for saved, key in enumerate(page.get_by_label("Which amount").locator("option").all_inner_texts(), start=1):
        page.get_by_label("Which amount").select_option(label=key)
        # s. 174.05(3): a raised tax for an unaltered dog is greater than for an altered one.
        page.get_by_label("Amount", exact=True).fill("20.00" if "unaltered" in key else "15.00")
        page.get_by_label("In force from").fill(f"{year - 1}-01-01")
        page.get_by_label("Set by (resolution or section)").fill("Town Board Res. 1")
        page.get_by_role("button", name="Save").click()
        # Saved (the schedule shows the entry) before the next amount is chosen on the page it returns.
        expect(page.get_by_role("cell", name="Town Board Res. 1", exact=True)).to_have_count(saved)
    page.get_by_role("link", name="Home").click()
    expect(page.get_by_text("Every amount the ordinance leaves to the municipality is set.")).to_be_visible()

    # The counter says which step is missing: no tags yet, with the link to Tag stock.
    page.goto(f"{live_server.url}/animals/{dog.pk}/license/")
    expect(page.get_by_text(f"No {year} tags are left in stock")).to_be_visible()
    page.locator("#main").get_by_role("link", name="Tag stock").click()
    for lot_year, first in ((year, 1), (year + 1, 501)):
        page.get_by_label("License year").fill(str(lot_year))
        page.get_by_label("First serial").fill(str(first))
        page.get_by_label("Last serial").fill(str(first + 99))
        page.get_by_role("button", name="Record").click()
        expect(page.get_by_role("cell", name=str(lot_year), exact=True)).to_be_visible()
    page.get_by_role("link", name="Home").click()
    page.get_by_role("link", name="Enter the office's address, hours and phone").click()
    page.get_by_label("Office address").fill("W1000 Town Hall Rd, Sampson")
    page.get_by_label("Office phone").fill("715-555-0100")
    page.get_by_label("Office hours").fill("Tuesday and Thursday 9–3")
    page.get_by_label("Police phone").fill("715-555-0911")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name=re.compile("Setting up"))).to_have_count(0)
    expect(page.get_by_text(f"{year + 1}", exact=False).first).to_be_visible()

    # December: next year's tags are in stock, so the clerk chooses the license year.
    page.goto(f"{live_server.url}/animals/{dog.pk}/license/")
    page.get_by_role("navigation", name="License year").get_by_role("link", name=str(year + 1)).click()
    expect(page.get_by_role("button", name=f"Issue the {year + 1} license")).to_be_visible()
    page.get_by_role("button", name=f"Issue the {year + 1} license").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"{year + 1} dog license 501")
    license = License.objects.get(animal=dog)

    # A void with a refund, shown on the license and in the day's close.
    page.get_by_role("link", name="Void").click()
    page.get_by_label("Reason").fill("owner moved away before January")
    page.get_by_label("Refund", exact=True).select_option("cash")
    page.get_by_role("button", name="Void").click()
    expect(page.get_by_text(f"${license.total} refunded by cash")).to_be_visible()
    assert Refund.objects.get(license=license).amount == license.total
    page.get_by_role("link", name="Day's close").click()
    expect(page.get_by_text("Refunds on voided licenses")).to_be_visible()
    expect(page.get_by_text(f"refunded ${license.total}")).to_be_visible()

    # The portal, the same December: a resident may apply for next year's license.
    page.context.clear_cookies()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/apply/")
    page.get_by_label("Where do you live?").select_option(label=str(dog.municipality))
    page.get_by_label("Your email address").fill("gail@example.org")
    page.get_by_label("License year").select_option(str(year + 1))
    page.get_by_role("button", name="Start my application").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"{dog.municipality}, {year + 1}")


def test_an_officer_reports_a_bite_by_a_stray_and_links_the_dog_when_found(page, live_server):
    page.set_default_navigation_timeout(30_000)  # the first page of a fresh server on a busy machine
    call_command("demo", stdout=io.StringIO())
    dog = sampson_dog()
    log_in(page, live_server, "officer")
    page.goto(f"{live_server.url}/m/sampson/")
    expect(page.get_by_role("heading", name="Today on patrol")).to_be_visible()
    page.get_by_role("navigation", name="Your work").get_by_role("link", name="Report a bite").click()
    page.get_by_label("Victim name").fill("Dee Walker")
    page.get_by_label("Bitten on").fill(timezone.localdate().isoformat())
    page.get_by_label("Place").fill("the school yard")
    page.get_by_label("The animal, if unknown or a stray").fill("sable collie, no collar, ran toward the farm")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("sable collie, no collar")
    page.get_by_role("link", name="Identify the animal").click()
    page.wait_for_load_state("load")  # htmx is deferred: typed before it runs, the search is never asked
    page.get_by_label("Animal", exact=True).fill(dog.name)
    page.get_by_role("option", name=re.compile(f"^{dog.name} ")).click()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ranger")
    expect(page.get_by_role("link", name="Order the quarantine")).to_be_visible()


PAGES = [
    # name, user, path (after the sample data)
    ("clerk-home", "benton-clerk", "/m/benton/"),
    ("counter", "benton-clerk", "/animals/{dog}/license/"),
    ("animal", "benton-clerk", "/animals/{dog}/"),
    ("person", "benton-clerk", "/people/{owner}/"),
    ("license", "benton-clerk", "/licenses/{license}/"),
    ("fees", "benton-clerk", "/m/benton/fees/"),
    ("day-close", "benton-clerk", "/m/benton/reports/day-close/"),
    ("applications", "benton-clerk", "/m/benton/applications/"),
    ("dashboard", "benton-clerk", "/m/benton/dashboard/"),
    ("officer-home", "officer", "/m/benton/"),
    ("my-cases", "officer", "/my-cases/"),
    ("case", "officer", "/cases/{case}/"),
    ("found-dog", None, "/found/"),
    ("portal", None, "/apply/"),
]


def test_each_main_page_at_desktop_and_phone_size(page, live_server, pytestconfig):
    page.set_default_navigation_timeout(30_000)
    call_command("demo", "--with-sample-data", stdout=io.StringIO())
    dog = Animal.objects.filter(municipality__slug="benton", species="dog").order_by("pk").first()
    ids = {
        "dog": dog.pk,
        "owner": dog.current_owners()[0].person_id,
        "license": License.objects.filter(municipality__slug="benton").order_by("pk").first().pk,
        "case": Case.objects.filter(municipality__slug="benton").order_by("pk").first().pk,
    }
    SCREENSHOTS.mkdir(exist_ok=True)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    user = ""
    sizes = (("desktop", DESKTOP), ("phone", PHONE))
    for name, username, path in PAGES:
        if username != user:
            page.context.clear_cookies()
            if username:
                log_in(page, live_server, username)
            user = username
        # At the instants (--at) the phone only: the desktop's assertions, the status (the server's,
        # which the window's width never reaches) and no script error (the same scripts on the same
        # page; none branches on the width but forms.js's tables, either way), the phone makes too.
        for size, viewport in (("phone", PHONE),) if pytestconfig.getoption("at") else sizes:
            page.set_viewport_size(viewport)
            response = page.goto(live_server.url + path.format(**ids))
            assert response.status == 200, (name, response.status)
            # Nothing wider than the phone's screen but a table that scrolls in its own box.
            if size == "phone":
                assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1, name
            page.screenshot(path=SCREENSHOTS / f"{name}-{size}.png", full_page=True)
    assert errors == []
