"""The clerk opens a clinic file's canvassing list (the animals it showed vaccinated with no
license in force) on a 390 px phone and sends the invitations; axe-core checks every page state
(tests/browser/conftest.py)."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from dogtag.imports.models import Clinic, ClinicFile, LicenseInvitation
from dogtag.licensing.facts import read_facts
from dogtag.licensing.owed import what_is_owed
from dogtag.outbox.models import Message
from tests.browser.test_portal import PHONE, benton_dog
from tests.browser.test_registry import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_clerk_sends_the_invitations_of_a_clinic_files_canvassing_list_on_a_phone(page, live_server):
    _, benton, dog = benton_dog()  # the demo and Rex, vaccinated and not licensed
    vet = get_user_model().objects.get(username="vet")
    clinic = Clinic.objects.create(municipality=benton, name="Benton Animal Clinic")
    now = timezone.now()
    clinic_file = ClinicFile.objects.create(
        municipality=benton, clinic=clinic, file_name="november.csv", file_sha256="0" * 64, uploaded_by=vet,
        mapped_at=now, confirmed_by=vet, confirmed_at=now, finished_at=now, written=1,
        summary={"rows": 1, "matched": 1, "unmatched": 0, "invalid": 0, "unlicensed": 1,
                 "unlicensed_animals": [dog.pk]},
    )  # fmt: skip
    fee = what_is_owed(read_facts(dog, timezone.localdate())).total

    page.set_default_timeout(30_000)  # a loaded machine
    page.set_viewport_size(PHONE)
    log_in(page, live_server, "benton-clerk")
    page.goto(f"{live_server.url}/m/benton/clinic-files/{clinic_file.pk}/")
    page.get_by_role("link", name="Vaccinated, not licensed: invite the owners to license").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Vaccinated, not licensed")
    row = page.locator("table.list tbody tr").filter(has_text=dog.name)
    expect(row).to_contain_text("Pat Owner")
    expect(row).to_contain_text("Email")
    expect(row).to_contain_text(f"${fee}")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    page.get_by_role("button", name="Send the invitations not yet sent").click()

    expect(page.get_by_text("The invitations are being sent")).to_be_visible()
    expect(row).to_contain_text(timezone.localdate().strftime("%B"))  # the day it was sent, in words
    invitation = LicenseInvitation.objects.get()
    assert (invitation.animal_id, invitation.fee, invitation.channel) == (dog.pk, fee, "email")
    assert Message.objects.filter(kind="license-invitation", to="pat@example.org").count() == 1
