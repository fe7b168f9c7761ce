"""A veterinarian uploads her clinic's month of rabies certificates, maps its columns, confirms
what the check found and sees them recorded, on a 390 px phone (issue 30 §2); axe-core checks every
page state (tests/browser/conftest.py)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from dogtag.registry.models import Animal, RabiesVaccination
from tests.browser.test_portal import PHONE, benton_dog
from tests.browser.test_registry import log_in
from tests.imports.test_clinic_files import COLUMNS, HEADER, clinic_csv, line

pytestmark = pytest.mark.django_db(transaction=True)
LABELS = {
    "rabies_certificate": "Certificate serial number", "vaccinated_on": "Vaccination date",
    "rabies_expires_on": "Expiration date", "vaccine_type": "Vaccine type (e.g. killed virus, 3-year)",
    "vaccine_serial": "Vaccine manufacturer's serial number", "rabies_tag": "Rabies tag number",
    "veterinarian_name": "Veterinarian's name", "veterinarian_address": "Veterinarian's address",
    "veterinarian_phone": "Veterinarian's telephone", "microchip": "Microchip number",
}  # fmt: skip


def test_a_vet_uploads_a_clinic_file_maps_its_columns_and_confirms_on_a_phone(page, live_server):
    _, _, dog = benton_dog()  # the demo and Rex
    Animal.objects.filter(pk=dog.pk).update(microchip="985112000000555")  # as the counter would have set it
    given = timezone.localdate() - timedelta(days=10)
    content = clinic_csv(
        line(
            "WALK-1",
            chip="985112000000555",
            given=f"{given:%m/%d/%Y}",
            expires=f"{given.replace(year=given.year + 3, day=1):%m/%d/%Y}",
        ),
        line("WALK-2", chip="985112000000999"),  # no such chip
        line("WALK-3", chip="985112000000555", given="31/31/2026"),  # no such date
    )

    page.set_default_timeout(30_000)  # a loaded machine
    page.set_viewport_size(PHONE)
    log_in(page, live_server, "vet")
    page.goto(f"{live_server.url}/m/benton/clinic-files/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Upload a clinic's rabies certificates")
    page.get_by_label("Clinic").fill("Benton Animal Clinic")
    page.get_by_label("Certificates (CSV or Excel .xlsx)").set_input_files(
        {"name": "november.csv", "mimeType": "text/csv", "buffer": content}
    )
    page.get_by_role("button", name="Upload and map its columns").click()

    expect(page.get_by_role("heading", name="Match the file's columns")).to_be_visible()
    for column, label in LABELS.items():
        page.get_by_label(label).select_option(COLUMNS[column])
    page.get_by_label("Dates in the file are written as").fill("%m/%d/%Y")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    page.get_by_role("button", name="Check the file").click()

    expect(page.get_by_text("Checked; waiting for your confirmation")).to_be_visible()
    expect(page.locator(".problems")).to_contain_text("Row 4, column “Given” (31/31/2026): a date as MM/DD/YYYY")
    expect(page.locator(".unmatched")).to_contain_text("Row 3")
    expect(page.locator(".unmatched")).to_contain_text("No animal has microchip 985112000000999.")
    expect(page.locator(".matched")).to_contain_text(f"certificate WALK-1, {dog.name}")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    page.get_by_role("button", name="Record 1 certificate").click()

    expect(page.get_by_text("Recorded 1 certificate.")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    assert list(RabiesVaccination.objects.filter(certificate_serial__startswith="WALK-").values_list(
        "certificate_serial", "animal_id")) == [("WALK-1", dog.pk)]  # fmt: skip
    assert HEADER[0] == "Cert #"
