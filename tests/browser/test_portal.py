"""The public portal and the staff pages around it, in real Chromium: a resident renews from a
notice link and the clerk approves; a clerk licenses at the counter; an officer impounds and
releases a dog; a stranger looks up a tag on a phone."""

import io
import re
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from dogtag.licensing import actions as licensing
from dogtag.licensing.facts import read_facts
from dogtag.licensing.models import License
from dogtag.licensing.owed import what_is_owed
from dogtag.licensing.years import license_years_on_sale, preselected_year
from dogtag.outbox.models import Message
from dogtag.outbox.sender import attachment_of
from dogtag.portal.models import MunicipalityContact
from dogtag.registry import actions as registry
from dogtag.registry.models import Municipality
from tests.browser.test_registry import log_in

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}


def benton_dog():
    """The demo, Benton's fees and this year's tags, and Rex with a current rabies certificate."""
    call_command("demo", stdout=io.StringIO())
    clerk = get_user_model().objects.get(username="benton-clerk")
    benton = Municipality.objects.get(slug="benton")
    today = timezone.localdate()
    for key, amount in {"license_tax.altered": "5.00", "license_tax.unaltered": "10.00", "late_fee": "5.00"}.items():
        licensing.set_fee(
            acting_user=clerk,
            municipality=benton,
            key=key,
            amount=Decimal(amount),
            effective_on=date(today.year - 3, 1, 1),
            authority="Res. 2023-01",
        )
    for year in (today.year, today.year + 1):
        licensing.receive_tag_lot(
            acting_user=clerk, municipality=benton, license_year=year, first_serial=101, last_serial=150
        )
    owner = registry.create_person(
        acting_user=clerk,
        municipality=benton,
        name="Pat Owner",
        street="12 Main St",
        city="Benton",
        postal_code="53803",
        phone="608-555-0123",
        email="pat@example.org",
    )
    dog = registry.register_animal(
        acting_user=clerk,
        municipality=benton,
        owner=owner,
        name="Rex",
        breed="Beagle",
        color="tricolor",
        sex="male",
        birth_date=today - timedelta(days=2 * 365 + 40),
    )
    registry.record_vaccination(
        dog,
        acting_user=clerk,
        certificate_serial="R-1001",
        vaccinated_on=today - timedelta(days=30),
        vaccine_type="killed virus, 3-year",
        vaccine_serial="LOT-77",
        expires_on=today + timedelta(days=3 * 365),
        veterinarian_name="Dr. Vera Vet",
        veterinarian_address="1 Clinic Rd",
        veterinarian_phone="608-555-0100",
        rabies_tag_number="RT-555",
    )
    return clerk, benton, dog


def cash(dog):
    """Today's whole amount (a late fee may apply, depending on the day the suite runs)."""
    return {"amount": str(what_is_owed(read_facts(dog, timezone.localdate())).total), "method": "cash"}


def test_a_resident_renews_from_the_notice_link_and_the_clerk_approves(page, live_server, settings):
    settings.DOGTAG_BASE_URL = live_server.url
    clerk, benton, dog = benton_dog()
    this_year = licensing.issue_license(dog, acting_user=clerk, payment=cash(dog))
    # the notice's email is written when the worker (here: on commit, in this process) prints it
    licensing.start_renewal_run(acting_user=clerk, municipality=benton, license_year=this_year.license_year + 1)
    link = re.search(r"(http\S+/renew/\S+/)", Message.objects.get(kind="renewal-notice").text).group(1)
    MunicipalityContact.objects.create(municipality=benton, office_address="1 Main St, Benton",
                                       clerk_phone="608-555-0142", clerk_hours="Monday–Friday 8 a.m.–4 p.m.",
                                       police_phone="608-555-0911")  # fmt: skip

    page.set_viewport_size(PHONE)
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Renew the license for Rex")
    expect(page.get_by_label("Dog's name")).to_have_value("Rex")
    expect(page.get_by_label("Rabies certificate number")).to_have_value("R-1001")
    # The clerk holds the current certificate: it is not asked for again.
    expect(page.get_by_text("The clerk already holds rabies certificate R-1001")).to_be_visible()
    expect(page.get_by_role("complementary", name="The clerk's office")).to_contain_text("608-555-")
    page.get_by_role("button", name="Check the cost").click()
    expect(page.get_by_text("Your dog's license costs $10.00 because it is not spayed or neutered")).to_be_visible()
    expect(page.get_by_label("Pay at the clerk's counter or by mailed check")).to_be_checked()
    page.get_by_role("button", name="Send my application").click()
    expect(page.get_by_text("Waiting for the clerk")).to_be_visible()

    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, "benton-clerk")
    page.goto(f"{live_server.url}/m/benton/applications/")
    page.get_by_role("link", name="Rex").click()
    expect(page.get_by_text("Rabies certificate R-1001 on file")).to_be_visible()
    page.get_by_label("Amount received").fill("10.00")
    page.get_by_role("button", name="Approve and issue the license").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"{this_year.license_year + 1} dog license")
    renewed = License.objects.get(animal=dog, license_year=this_year.license_year + 1)
    assert renewed.total == Decimal("10.00")
    approved = Message.objects.get(kind="application-approved", to="pat@example.org")
    assert attachment_of(approved).startswith(b"%PDF")


def test_a_clerk_issues_a_license_at_the_counter(page, live_server):
    clerk, benton, dog = benton_dog()
    log_in(page, live_server, "benton-clerk")
    page.goto(f"{live_server.url}/animals/{dog.pk}/license/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("License for Rex")
    # the year the counter preselects (next year's in December, its tags being in stock: issue 29)
    today = timezone.localdate()
    year = preselected_year(license_years_on_sale(benton, today))
    page.get_by_label("Amount received").fill(str(what_is_owed(read_facts(dog, today, year)).total))
    page.get_by_role("button", name=f"Issue the {year} license").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("dog license 101")
    assert License.objects.get(animal=dog).payment.amount >= Decimal("10.00")


def test_an_officer_impounds_a_dog_and_releases_it(page, live_server):
    clerk, benton, dog = benton_dog()
    licensing.issue_license(dog, acting_user=clerk, payment=cash(dog))
    log_in(page, live_server, "officer")
    page.goto(f"{live_server.url}/m/benton/impoundments/new/")
    page.wait_for_load_state("load")  # htmx is deferred: typed before it runs, the search is never asked
    page.get_by_label("Animal", exact=True).fill(dog.name[:3])  # a type-ahead search
    page.get_by_role("option", name=re.compile(rf"^{dog.name} \(dog\)")).click()
    page.get_by_label("Found at").fill("Main St and 2nd Ave")
    page.get_by_label("Reason", exact=True).select_option(index=1)
    page.get_by_label("I saw or heard the violation").check()
    page.get_by_label("Held at", exact=True).fill("Village garage kennel")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Impoundment")
    page.get_by_role("link", name="Release to the owner").click()
    # Benton's law makes no tag a condition of release (only Sampson's does): not asked (issue 29)
    expect(page.get_by_label("Properly tagged")).to_have_count(0)
    page.get_by_label("Impoundment fees and charges paid").check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Released to the owner on")).to_be_visible()


def test_a_stranger_looks_up_a_tag_on_a_phone(page, live_server):
    clerk, benton, dog = benton_dog()
    license = licensing.issue_license(dog, acting_user=clerk, payment=cash(dog))
    MunicipalityContact.objects.create(
        municipality=benton,
        clerk_phone="608-555-0142",
        clerk_hours="Monday–Friday 8 a.m.–4 p.m.",
        police_phone="608-555-0911",
    )
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/found/")
    field = page.get_by_label("License tag or rabies tag number")
    field.focus()
    page.keyboard.type(str(license.serial))
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="This is Rex")).to_be_visible()
    expect(page.get_by_text("608-555-0142")).to_be_visible()
    body = page.content()
    for secret in ("Pat Owner", "12 Main St", "608-555-0123"):
        assert secret not in body
