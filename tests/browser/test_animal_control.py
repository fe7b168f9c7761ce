"""Animal control in real Chromium: an officer reports a Webster bite, orders the quarantine, records
the delivery and the three examinations, reads the deadlines with their citations, releases the dog
on the veterinarian's certificate and no longer finds it in "my cases"; and, from the keyboard,
asks whether an animal is exempt from a district rabies quarantine.

The clock is frozen at each step of the bite (the bite twelve days back, so the browser's session
cookie, dated by the frozen server, is still good in real time); every expected day comes from the
rule engine, so the test holds whatever day it runs."""

import io
import re
from datetime import datetime, time, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from dogtag import rules
from dogtag.registry import actions as registry
from dogtag.registry.models import Municipality
from tests.base import CHICAGO, on
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_registry import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def webster_dogs():
    """The demo, and two Webster dogs: Buster with a current certificate and rabies tag RT-77,
    Nala with none."""
    call_command("demo", stdout=io.StringIO())
    clerk = get_user_model().objects.get(username="webster-clerk")
    webster = Municipality.objects.get(slug="webster")
    today = timezone.localdate()
    dogs = {}
    for name, street in (("Buster", "4 Birch St"), ("Nala", "6 Cedar St")):
        owner = registry.create_person(
            acting_user=clerk,
            municipality=webster,
            name=f"{name}'s owner",
            street=street,
            city="Webster",
            postal_code="54893",
            phone="715-555-0101",
        )
        dogs[name] = registry.register_animal(
            acting_user=clerk,
            municipality=webster,
            owner=owner,
            name=name,
            breed="Labrador",
            color="black",
            sex="male",
            birth_date=today - timedelta(days=3 * 365),
            acquired_on=today - timedelta(days=2 * 365),
        )
    registry.record_vaccination(
        dogs["Buster"],
        acting_user=clerk,
        certificate_serial="W-2001",
        vaccinated_on=today - timedelta(days=200),
        vaccine_type="killed virus, 3-year",
        vaccine_serial="LOT-9",
        expires_on=today - timedelta(days=200) + timedelta(days=3 * 365),
        veterinarian_name="Dr. Vera Vet",
        veterinarian_address="1 Clinic Rd, Webster",
        veterinarian_phone="715-555-0100",
        rabies_tag_number="RT-77",
    )
    return today, dogs


def shot(page, name):
    """A screenshot on the way, beside the one the fixture takes of the last page."""
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"animal-control-{name}.png", full_page=True)


def save(page):
    page.get_by_role("button", name="Save").click()


def test_an_officer_walks_a_bite_from_report_to_release(page, live_server):
    today, _ = webster_dogs()
    bitten = today - timedelta(days=12)
    ordered = {
        "bitten_on": bitten,
        "ordered_at": datetime.combine(bitten, time(15), CHICAGO),
        "currently_immunized": True,
    }
    quarantine = rules.ask("wi-webster", "bite_quarantine", ordered, bitten).value
    ends, exams = quarantine.observation_ends, quarantine.examination_days
    delivered_by = quarantine.delivery_deadline.astimezone(CHICAGO).date()
    with on(bitten, hour=15):  # the bite, reported and ordered the same afternoon
        log_in(page, live_server, "officer")
        page.get_by_role("link", name="My cases").click()
        page.get_by_role("link", name="Webster: cases and new").click()
        page.get_by_role("link", name="Bite report").click()
        page.wait_for_load_state("load")  # htmx is deferred: typed before it runs, the search is never asked
        page.get_by_label("Animal", exact=True).fill("Bust")  # a type-ahead search, not a list of every animal
        page.get_by_role("option", name=re.compile(r"^Buster \(dog\)")).click()
        page.get_by_label("Victim name").fill("Vic Tim")
        page.get_by_label("Bitten on").fill(bitten.isoformat())
        page.get_by_label("Place", exact=True).fill("the sidewalk on Main St")
        save(page)
        expect(page.get_by_role("heading", level=1)).to_contain_text("Bite and rabies quarantine")

        page.get_by_role("link", name="Order the quarantine").click()
        page.get_by_label("Place", exact=True).select_option(label="Isolation facility")
        page.get_by_label("Facility or premises").fill("Burnett County shelter, Siren")
        save(page)
        deadlines = page.locator("table.deadlines")
        # § 98-5: delivery within 24 hours of the order, observation 10 days after the bite, the
        # examinations on the first, an intervening and the last day; § 98-9: the owner's 14 days.
        for label, due in (
            ("Deliver the animal to the place of isolation", delivered_by),
            ("Veterinary examination: first day of isolation", exams.first),
            ("Veterinary examination: last day of isolation", exams.last),
            ("Observation ends; release only on the veterinarian's certificate", ends),
            ("Owner keeps the animal confined through", quarantine.owner_confinement_ends),
        ):
            row = deadlines.get_by_role("row").filter(has_text=label)
            expect(row).to_contain_text(f"{due:%B} {due.day}, {due.year}")
            expect(row).to_contain_text("§ 98-")
        delivery = deadlines.get_by_role("row").filter(has_text="Deliver the animal to the place of isolation")
        expect(delivery).to_contain_text(f"{delivered_by:%B} {delivered_by.day}")
        # 24 hours from the 3 p.m. order, unless a Sunday or legal holiday is left out (s. 990.001(4)(a))
        expect(delivery).to_contain_text(f"{quarantine.delivery_deadline.astimezone(CHICAGO):%-I:%M %p}")
        delivery.get_by_text("why?").click()
        expect(delivery).to_contain_text("no later than 24 hours after the original order is issued")
        shot(page, "deadlines")
        examine(page, "First day of isolation", bitten)

    with on(bitten + timedelta(days=1), hour=9):
        page.get_by_role("link", name="Delivered").click()
        page.get_by_label("Delivered at").fill(f"{bitten + timedelta(days=1)}T09:30")
        save(page)
        expect(delivery).to_contain_text("done")
    with on(exams.suggested_intervening):
        examine(page, "An intervening day", exams.suggested_intervening)
    with on(exams.last):
        examine(page, "Last day of isolation", exams.last)
        page.get_by_role("link", name="Release", exact=True).click()
        page.get_by_label("Released on").fill(ends.isoformat())
        page.get_by_label("Veterinarian's certificate").fill("Cert. 88, Dr. Vera Vet")
        save(page)
        expect(page.get_by_text(re.compile(r"Closed .*: Released from quarantine"))).to_be_visible()
        expect(page.locator("table.deadlines")).not_to_contain_text("overdue")

        page.get_by_role("link", name="My cases").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("My cases")
        expect(page.get_by_text("No open cases.")).to_be_visible()
        expect(page.get_by_role("link", name=re.compile("Bite by Buster"))).to_have_count(0)


def examine(page, which, day):
    page.get_by_role("link", name="Record an examination").click()
    page.get_by_label("Which").select_option(label=which)
    page.get_by_label("Examined on").fill(day.isoformat())
    page.get_by_label("Findings").fill("Alert, eating; no signs of rabies.")
    save(page)
    expect(page.get_by_role("cell", name=which, exact=True)).to_be_visible()


def test_an_officer_asks_from_the_keyboard_who_is_exempt_from_a_district_quarantine(page, live_server):
    today, _ = webster_dogs()
    log_in(page, live_server, "officer")
    page.goto(f"{live_server.url}/m/webster/districts/new/")
    page.get_by_label("Declared on").fill(today.isoformat())
    page.get_by_label("Ends on").fill((today + timedelta(days=30)).isoformat())
    page.get_by_label("Area").fill("The Village of Webster")
    page.get_by_label("Ordered by").fill("Burnett County health department")
    page.get_by_label("Notices posted at").fill("Village Hall; Library; Post Office")
    save(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text("District rabies quarantine")

    field = page.get_by_label("Is this animal exempt?")
    field.focus()
    page.keyboard.type("RT-77")
    page.keyboard.press("Enter")
    answer = page.locator("article.answer")
    expect(answer).to_contain_text("Exempt: currently immunized (certificate W-2001")
    expect(answer).to_contain_text("with rabies tag RT-77 on record")
    expect(page.get_by_label("Is this animal exempt?")).to_be_focused()  # autofocus: ask again at once
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("nala")
    page.keyboard.press("Enter")
    expect(answer).to_contain_text("Must be confined, tied, leashed or muzzled: no current rabies certificate")
    answer.get_by_text("why?").click()
    expect(answer).to_contain_text("all dogs and cats within the village shall be kept securely confined")
    shot(page, "district-lookup")

    page.get_by_role("link", name="Dogs and cats not exempt").click()
    table = page.get_by_role("table")
    expect(table.get_by_role("link", name="Nala")).to_be_visible()
    expect(table.get_by_role("link", name="Buster")).to_have_count(0)
    with page.expect_download() as download:
        page.get_by_role("link", name="Export this list as CSV").click()
    assert "Nala,Dog,no current rabies certificate" in open(download.value.path(), encoding="utf-8").read()
