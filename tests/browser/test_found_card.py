"""The found-dog card on a phone: the office's name reads as part of its sentence, not as the
home page's statistic figures (issue 29, bug 4)."""

import pytest
from playwright.sync_api import expect

from dogtag.licensing import actions as licensing
from dogtag.portal.models import MunicipalityContact
from tests.browser.test_portal import PHONE, benton_dog, cash

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_office_name_on_the_found_dog_card_is_the_size_of_its_sentence(page, live_server):
    clerk, benton, dog = benton_dog()
    license = licensing.issue_license(dog, acting_user=clerk, payment=cash(dog))
    MunicipalityContact.objects.create(
        municipality=benton,
        clerk_office="Village Clerk-Treasurer",
        clerk_phone="608-555-0142",
        clerk_hours="Monday–Friday 8 a.m.–4 p.m.",
        police_phone="608-555-0911",
    )
    page.set_default_timeout(30_000)  # a loaded machine
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/found/?q={license.serial}")
    office = page.locator(".card.found strong", has_text="Village Clerk-Treasurer")
    expect(office).to_be_visible()
    sizes = office.evaluate(
        "e => [getComputedStyle(e).fontSize, getComputedStyle(e.parentElement).fontSize, getComputedStyle(e).display]"
    )
    assert sizes[0] == sizes[1], f"the office name is {sizes[0]} in a sentence of {sizes[1]}"
    assert sizes[2] == "inline"
