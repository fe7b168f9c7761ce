import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from dogtag.registry.models import Animal, Premises, RabiesVaccination

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page, live_server, username):
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("dogtag-demo")
    page.get_by_role("button", name="Log in").click()


def watch_for_policy_violations(page):
    """Every Content-Security-Policy violation the page reports, as the console logs it and as the
    document's `securitypolicyviolation` event gives it (an inline style, a script, a frame)."""
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.expose_function("reportPolicyViolation", lambda text: violations.append(text))
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => window.reportPolicyViolation("
        "`${e.violatedDirective} ${e.sourceFile}:${e.lineNumber} ${e.sample}`))"
    )
    return violations


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
    page.wait_for_load_state("load")  # htmx is deferred: typed before it runs, the search is never asked
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


def test_new_person_opens_in_place_in_the_owner_picker_and_comes_back_chosen(page, live_server):
    """Also: the form in place, its failed save and its save break no rule of the
    Content-Security-Policy (issue 29)."""
    violations = watch_for_policy_violations(page)
    call_command("demo", stdout=io.StringIO())
    log_in(page, live_server, "benton-clerk")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Village of Benton")
    page.goto(f"{live_server.url}/m/benton/animals/new/")
    page.wait_for_load_state("load")  # forms.js and htmx are deferred
    page.get_by_label("Name", exact=True).fill("Juniper")
    page.get_by_label("Breed").fill("Collie")
    owner = page.get_by_label("Owner", exact=True)
    owner.fill("Quinn Newcomb")
    expect(page.get_by_text("No match for “Quinn Newcomb”.")).to_be_visible()
    page.get_by_role("link", name="New person").click()
    new = page.get_by_role("group", name="New person")
    expect(new.get_by_label("Name", exact=True)).to_have_value("Quinn Newcomb")  # what was typed
    expect(new.get_by_label("Mailing address")).to_be_focused()  # the first field still to fill
    new.get_by_role("button", name="Save the person").click()  # refused: the fields it lacks
    expect(new.locator(".field-error").first).to_be_visible()
    new.get_by_label("Mailing address").fill("77 Larch Ln")
    new.get_by_label("City").fill("Benton")
    new.get_by_label("Postal code").press_sequentially("53803")
    new.get_by_label("Postal code").press("Enter")  # saves the new person, not the page's form
    expect(page.get_by_role("group", name="New person")).to_have_count(0)
    expect(owner).to_have_value("Quinn Newcomb, 77 Larch Ln")
    expect(owner).to_be_focused()
    assert page.url == f"{live_server.url}/m/benton/animals/new/"  # no page change
    expect(page.get_by_label("Name", exact=True)).to_have_value("Juniper")  # the rest is kept
    expect(page.get_by_label("Breed")).to_have_value("Collie")
    page.get_by_label("Sex").select_option("female")
    page.get_by_label("Birth date", exact=True).fill("2025-02-01")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Juniper")
    assert Animal.objects.get(name="Juniper").current_owners().get().person.street == "77 Larch Ln"
    assert violations == []


def test_new_premises_opens_in_place_on_the_hen_permit_form_and_comes_back_chosen(page, live_server):
    call_command("demo", stdout=io.StringIO())
    log_in(page, live_server, "cedarburg-clerk")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Cedarburg")
    page.goto(f"{live_server.url}/m/cedarburg/hen-permits/new/")
    page.wait_for_load_state("load")
    page.get_by_label("All owners of record", exact=True).fill("Hattie Hen")
    page.get_by_label("Hens", exact=True).fill("3")
    premises = page.get_by_label("Premises", exact=True)
    premises.fill("40 Coop Road")
    page.get_by_role("link", name="New premises").click()
    new = page.get_by_role("group", name="New premises")
    expect(new.get_by_label("Address")).to_have_value("40 Coop Road")
    new.get_by_label("Use").select_option("single-family")
    new.get_by_role("button", name="Save the premises").click()
    expect(premises).to_have_value("40 Coop Road")
    expect(page.get_by_role("group", name="New premises")).to_have_count(0)
    expect(page.get_by_label("All owners of record", exact=True)).to_have_value("Hattie Hen")
    expect(page.get_by_label("Hens", exact=True)).to_have_value("3")
    made = Premises.objects.get(street="40 Coop Road")
    assert made.municipality.slug == "cedarburg"
    assert page.locator('input[name="premises"]').input_value() == str(made.pk)
