"""A Spanish-speaking resident on a phone: chooses Spanish, applies for a new dog's license and
pays by card (the test stand-in for Stripe's page), then renews from the Spanish renewal email and
pays again. Every page they see is Spanish; the emails and the license certificates that arrive
are Spanish too (their text read from the outbox and the PDF)."""

import io
import re
from datetime import timedelta
from html import escape

import pytest
import stripe
from django.utils import timezone
from playwright.sync_api import expect
from pypdf import PdfReader

from dogtag.licensing import actions as licensing
from dogtag.licensing.models import License, TagLot
from dogtag.outbox.models import Message
from dogtag.outbox.sender import attachment_of
from dogtag.payments.models import Checkout
from dogtag.portal.models import Application
from tests.browser.test_pay_online import SHOTS
from tests.browser.test_portal import PHONE, benton_dog
from tests.payments.support import BENTON_STRIPE, install_stripe, paid_session, patch_env, recorded
from tests.portal.helpers import PDF

pytestmark = pytest.mark.django_db(transaction=True)


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def answer_checkout(transport, live_server, session_id, intent):
    """The processor's answers for one checkout: its hosted page (the stand-in) and, re-read, paid."""
    page_url = f"{live_server.url}/test-processor/checkout/{session_id}/"
    transport.answer("POST", "/v1/checkout/sessions", recorded("checkout_session", id=session_id, url=page_url))
    transport.answer(
        "GET",
        f"/v1/checkout/sessions/{session_id}",
        lambda: paid_session(Checkout.objects.get(session_id=session_id), intent=intent),
    )


def pay_by_card(page, shot):
    """From the review page: card, send, Dogtag's pay page, the processor's page (its own words)."""
    page.get_by_label("Pagar ahora con tarjeta (en la página segura del procesador de pagos)").check()
    page.get_by_role("button", name="Enviar mi solicitud").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Pagar con tarjeta")
    page.screenshot(path=SHOTS / f"spanish-{shot}-pay-390.png", full_page=True)
    page.get_by_role("button", name="Pagar $10.00 con tarjeta").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Test card processor")
    page.get_by_role("button", name="Pay $10.00").click()
    expect(page.get_by_text("Licencia expedida")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "es")


def test_a_spanish_speaking_resident_applies_pays_and_renews_in_spanish(page, live_server, settings):
    settings.DOGTAG_BASE_URL = live_server.url
    settings.ROOT_URLCONF = "tests.payments.urls"
    env = patch_env(BENTON_STRIPE)
    env.start()
    transport = install_stripe()
    try:
        clerk, benton, _rex = benton_dog()
        today = timezone.localdate()
        answer_checkout(transport, live_server, "cs_test_es1", "pi_test_es1")
        SHOTS.mkdir(exist_ok=True)
        page.set_viewport_size(PHONE)

        # The portal in the browser's English; the resident switches to Spanish.
        page.goto(f"{live_server.url}/apply/")
        page.get_by_role("button", name="Español").click()
        expect(page.locator("html")).to_have_attribute("lang", "es")
        expect(page.get_by_role("heading", level=1)).to_have_text("Solicitar una licencia para perro")
        page.get_by_label("¿Dónde vive?").select_option(label="Village of Benton")
        page.get_by_label("Su correo electrónico").fill("ana@example.org")
        page.screenshot(path=SHOTS / "spanish-1-start-390.png", full_page=True)
        page.get_by_role("button", name="Iniciar mi solicitud").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("Solicitud de licencia para perro")

        started = Message.objects.get(kind="application-started", to="ana@example.org")
        assert started.subject == "Su solicitud de licencia para perro — Village of Benton"
        page.goto(re.search(r"https?://\S+/confirm/\S+/", started.text).group(0))
        expect(page.get_by_text("Su correo electrónico ana@example.org está confirmado.")).to_be_visible()

        for label, value in {
            "Su nombre completo": "Ana García",
            "Dirección (calle y número)": "7 Elm St",
            "Ciudad": "Benton",
            "Código postal (ZIP)": "53803",
            "Nombre del perro": "Luna",
            "Raza": "Mestizo",
            "Color": "negro",
            "Fecha de nacimiento (puede ser aproximada)": (today - timedelta(days=700)).isoformat(),
            "Número del certificado de vacunación contra la rabia": "R-3001",
            "Fecha de la vacuna contra la rabia": (today - timedelta(days=20)).isoformat(),
            "Fecha de vencimiento del certificado de la rabia": (today + timedelta(days=3 * 365)).isoformat(),
            "Tipo de vacuna (como dice el certificado)": "killed virus, 3-year",
            "Número de serie o de lote de la vacuna": "LOT-12",
            "Número de la placa de la rabia": "RT-777",
            "Nombre del veterinario": "Dr. Vera Vet",
            "Dirección del veterinario": "1 Clinic Rd",
            "Teléfono del veterinario": "608-555-0100",
        }.items():
            page.get_by_label(label, exact=True).fill(value)
        page.get_by_label("Sexo").select_option(label="Hembra")
        page.get_by_label("Foto o PDF del certificado de vacunación contra la rabia").set_input_files(
            {"name": "certificado.pdf", "mimeType": "application/pdf", "buffer": PDF}
        )
        page.screenshot(path=SHOTS / "spanish-2-application-390.png", full_page=True)
        page.get_by_role("button", name="Ver el costo").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Ver el costo y enviar")
        expect(
            page.get_by_text("La licencia de su perro cuesta $10.00 porque no está esterilizado ni castrado")
        ).to_be_visible()
        page.screenshot(path=SHOTS / "spanish-3-review-390.png", full_page=True)
        pay_by_card(page, "4")
        license = License.objects.get(animal__name="Luna")
        expect(page.get_by_text(f"Su número de licencia es {license.serial}")).to_be_visible()
        page.screenshot(path=SHOTS / "spanish-5-licensed-390.png", full_page=True)
        assert license.holder.language == "es"

        approved = Message.objects.get(kind="application-approved", to="ana@example.org")
        assert approved.subject == f"Licencia de perro {license.license_year} de Luna — Village of Benton"
        assert f"ya está expedida: número de licencia {license.serial}" in approved.text
        certificate = pdf_text(attachment_of(approved))
        assert f"Licencia de perro {license.license_year} n.º {license.serial}" in certificate
        assert "Nombre del dueño" in certificate and "Fecha: " in certificate

        # Next year's renewal: the notice's email is Spanish, and so is the renewal it opens.
        answer_checkout(transport, live_server, "cs_test_es2", "pi_test_es2")
        next_year = license.license_year + 1  # in December the first license may already be next year's
        if not TagLot.objects.filter(municipality=benton, license_year=next_year).exists():
            licensing.receive_tag_lot(
                acting_user=clerk, municipality=benton, license_year=next_year, first_serial=101, last_serial=150
            )
        licensing.start_renewal_run(acting_user=clerk, municipality=benton, license_year=license.license_year + 1)
        notice = Message.objects.get(kind="renewal-notice", to="ana@example.org")
        assert notice.subject == f"Renovación de la licencia {license.license_year + 1} de Luna — Village of Benton"
        page.goto(re.search(r"(http\S+/renew/\S+/)", notice.text).group(1))
        expect(page.get_by_role("heading", level=1)).to_contain_text("Renovar la licencia de Luna")
        expect(page.get_by_label("Nombre del perro")).to_have_value("Luna")
        page.screenshot(path=SHOTS / "spanish-6-renewal-390.png", full_page=True)
        page.get_by_role("button", name="Ver el costo").click()
        pay_by_card(page, "7")
        renewed = License.objects.get(animal__name="Luna", license_year=license.license_year + 1)
        assert Application.objects.get(license=renewed).language == "es"
        approved = Message.objects.filter(kind="application-approved", to="ana@example.org").latest("pk")
        assert f"La licencia {renewed.license_year} de Luna ya está expedida" in approved.text
        assert f"Licencia de perro {renewed.license_year} n.º {renewed.serial}" in pdf_text(attachment_of(approved))
        # The email as it reads (on a blank page: the site's CSP refuses the inline style).
        page.goto("about:blank")
        page.set_content(f'<meta name="viewport" content="width=device-width"><h1>{escape(approved.subject)}</h1>'
                         f'<pre style="white-space: pre-wrap">{escape(approved.text)}</pre>')  # fmt: skip
        page.screenshot(path=SHOTS / "spanish-8-email-390.png", full_page=True)
    finally:
        env.stop()
        stripe.default_http_client = None
