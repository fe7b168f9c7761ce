"""A file over the size limit, in real Chromium: on the portal and on a staff page the form shows
its error summary (linked, focused) and the field's error after the input; nothing is sent, so
nothing is stored (issue 29: an oversized upload showed no banner)."""

import io
import re

import pytest
from django.conf import settings
from django.core.management import call_command
from playwright.sync_api import expect

from dogtag.portal import actions
from dogtag.registry.models import Municipality
from tests.browser.test_registry import log_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _small_limit(settings):
    """A 1 MB limit for uploads and 2 MB for a request (the live server runs in this process), so the
    file handed to Chromium is small."""
    settings.DOGTAG_UPLOAD_MAX_BYTES = 1_000_000
    settings.DOGTAG_REQUEST_MAX_BYTES = 2_000_000


def too_large(tmp_path, name):
    """A file over what the server would even read."""
    path = tmp_path / name
    path.write_bytes(b"%PDF-1.4\n" + b"0" * (settings.DOGTAG_REQUEST_MAX_BYTES + 500_000))
    return path


def expect_refused_in_place(page, field_id, label):
    summary = page.locator(".error-summary")
    expect(summary).to_be_focused()
    link = summary.get_by_role("link", name=f"{label}: The file is")
    expect(link).to_have_attribute("href", f"#{field_id}")
    field = page.locator(f"#{field_id}")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_attribute("aria-describedby", re.compile(rf"(^| ){field_id}_error$"))
    error = page.locator(f"#{field_id}_error")
    expect(error).to_contain_text(f"the largest accepted is {settings.DOGTAG_UPLOAD_MAX_BYTES // 1_000_000} MB")
    # The error follows the input.
    assert page.evaluate(
        f"() => !!(document.getElementById('{field_id}').compareDocumentPosition("
        f"document.getElementById('{field_id}_error')) & Node.DOCUMENT_POSITION_FOLLOWING)"
    )


def test_the_portal_refuses_an_oversized_certificate_with_its_summary_and_stores_nothing(page, live_server, tmp_path):
    call_command("demo", stdout=io.StringIO())
    app = actions.start_application(municipality=Municipality.objects.get(slug="benton"), email="dana@example.org")
    page.goto(f"{live_server.url}/apply/a/{app.token}/")
    page.wait_for_load_state("load")  # forms.js is deferred
    page.get_by_label("Photo or PDF of the rabies certificate").set_input_files(too_large(tmp_path, "certificate.pdf"))
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.get_by_role("button", name="Save and finish later").click()
    label = "Photo or PDF of the rabies certificate"
    expect_refused_in_place(page, "id_rabies_certificate_file", label)
    assert posts == []
    app.refresh_from_db()
    assert not app.rabies_certificate


def test_a_staff_upload_over_the_limit_gets_the_summary_and_the_field_error(page, live_server, tmp_path):
    call_command("demo", stdout=io.StringIO())
    log_in(page, live_server, "benton-clerk")
    page.goto(f"{live_server.url}/m/benton/seal/")
    page.wait_for_load_state("load")
    page.get_by_label("The seal (a PNG or JPEG image)").set_input_files(too_large(tmp_path, "seal.png"))
    page.get_by_role("button", name="Upload").click()
    expect_refused_in_place(page, "id_seal", "The seal (a PNG or JPEG image)")
    assert not Municipality.objects.get(slug="benton").seal
