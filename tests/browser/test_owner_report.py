"""On a 390 px phone, a resident opens her renewal with the code printed on her notice, reports
her dog lost, a finder's microchip lookup is told to call the office, and she reports it found
again (issue 30 §3, §4, §6)."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from dogtag.lib.short_codes import shown
from dogtag.licensing import actions as licensing
from dogtag.portal.models import MunicipalityContact
from dogtag.registry.models import Animal, AnimalReport, RenewalCode
from tests.browser.test_portal import PHONE, benton_dog, cash

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_resident_reports_her_dog_lost_and_then_found_on_a_phone(page, live_server, settings):
    settings.DOGTAG_BASE_URL = live_server.url
    clerk, benton, dog = benton_dog()
    registry_chip = "985112000000777"
    Animal.objects.filter(pk=dog.pk).update(microchip=registry_chip)  # set as the counter would have
    this_year = licensing.issue_license(dog, acting_user=clerk, payment=cash(dog))
    licensing.start_renewal_run(acting_user=clerk, municipality=benton, license_year=this_year.license_year + 1)
    code = RenewalCode.objects.get(animal=dog).code
    MunicipalityContact.objects.create(municipality=benton, office_address="1 Main St, Benton",
                                       clerk_phone="608-555-0142", clerk_hours="Monday–Friday 8 a.m.–4 p.m.",
                                       police_phone="608-555-0911")  # fmt: skip
    today = timezone.localdate()

    page.set_default_timeout(30_000)  # a loaded machine
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/")
    page.get_by_label("Renewal code").fill(shown(code).lower())
    page.get_by_role("button", name="Open my renewal").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Renew the license for Rex")
    page.get_by_role("link", name="Tell the clerk's office").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("Rex")
    page.get_by_label("Reported lost").check()
    page.get_by_label("On what date").fill(today.isoformat())
    page.get_by_label("Anything the office should know").fill("Ran off near the park")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text("On record as: reported lost")).to_be_visible()
    expect(
        page.locator(".reports li", has_text=f"Reported lost on {today:%B} {today.day}, {today.year}")
    ).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    pet_page = page.url

    # A finder scans the chip: told to call the office, never who the owner is.
    page.goto(f"{live_server.url}/found/")
    page.get_by_label("Microchip number").fill("985 112 000 000 777")
    page.get_by_role("button", name="Look up the microchip").click()
    expect(page.get_by_text("Its owner has reported Rex lost.")).to_be_visible()
    expect(page.locator(".card.found")).to_contain_text("608-555-0142")
    expect(page.locator("body")).not_to_contain_text("Pat Owner")
    expect(page.locator("body")).not_to_contain_text("12 Main St")

    page.goto(pet_page)
    page.get_by_label("Found again").check()
    page.get_by_label("On what date").fill(today.isoformat())
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text("On record as: at home")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    assert list(AnimalReport.objects.order_by("pk").values_list("kind", "by_owner")) == [
        ("lost", True),
        ("found", True),
    ]
    assert Animal.objects.get(pk=dog.pk).status == Animal.Status.ACTIVE
