import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from dogtag.registry.models import Animal, RabiesVaccination

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page, live_server, username):
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("dogtag-demo")
    page.get_by_role("button", name="Log in").click()


def test_the_demo_clerk_registers_a_dog_with_a_rabies_certificate(page, live_server):
    call_command("demo", stdout=io.StringIO())
    log_in(page, live_server, "benton-clerk")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Village of Benton")

    page.get_by_role("link", name="New person").click()
    page.get_by_label("Name").fill("Dana Doe")
    page.get_by_label("Mailing address").fill("5 Oak St")
    page.get_by_label("City").fill("Benton")
    page.get_by_label("Postal code").fill("53803")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Dana Doe")

    # The owner picker: type part of the name, choose the match (no list of every person).
    page.goto(f"{live_server.url}/m/benton/animals/new/")
    page.get_by_label("Owner", exact=True).fill("Dana")
    page.get_by_role("option", name=re.compile("Dana Doe, 5 Oak St")).click()
    expect(page.get_by_label("Owner", exact=True)).to_have_value("Dana Doe, 5 Oak St")
    page.get_by_label("Name", exact=True).fill("Maple")
    page.get_by_label("Breed").fill("Labrador")
    page.get_by_label("Color").fill("yellow")
    page.get_by_label("Sex").select_option("female")
    page.get_by_label("Birth date", exact=True).fill("2025-02-01")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Maple")

    page.get_by_role("link", name="Record a rabies certificate").click()
    expect(page.get_by_label("Owner's name")).to_have_value("Dana Doe")
    for label, value in [
        ("Certificate serial number", "R-7"),
        ("Vaccination date", "2025-06-10"),
        ("Vaccine type", "killed virus, 1-year"),
        ("Manufacturer's serial number", "LOT-3"),
        ("Expiration date", "2026-06-10"),
        ("Veterinarian's name", "Dr. Vet"),
        ("Veterinarian's address", "1 Clinic Rd"),
        ("Veterinarian's telephone", "608-555-0100"),
        ("Rabies tag number", "RT-77"),
    ]:
        page.get_by_label(label).fill(value)
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Rabies certificate R-7")

    maple = Animal.objects.get(name="Maple")
    assert maple.current_owners().get().person.name == "Dana Doe"
    assert RabiesVaccination.objects.get(certificate_serial="R-7").animal == maple


def test_search_works_from_the_keyboard(page, live_server):
    call_command("demo", stdout=io.StringIO())
    log_in(page, live_server, "benton-clerk")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Village of Benton")
    page.wait_for_load_state("load")  # keys.js is deferred
    page.keyboard.press("/")
    expect(page.get_by_role("searchbox")).to_be_focused()
    page.keyboard.type("nobody-here")
    expect(page.get_by_text("No animal matches.")).to_be_visible()
