"""A Spanish-speaking resident on a phone reads the annotated ordinance and searches it, lands on a
page that does not exist, reports her dog lost from its page, and finds each municipality's apply
link by its name: every page in Spanish, and axe-core finds nothing on any of them (conftest)."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from dogtag.lib import links
from tests.browser.test_portal import PHONE, benton_dog

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_spanish_speaking_resident_reads_the_ordinance_reports_her_dog_and_finds_her_office(page, live_server):
    _clerk, _benton, dog = benton_dog()
    page.set_default_timeout(30_000)  # a loaded machine; the ordinance's text is read from its pack
    page.set_viewport_size(PHONE)

    page.goto(f"{live_server.url}/ordinance/")
    page.get_by_role("button", name="Español").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ordenanzas sobre animales")
    page.get_by_role("link", name="Village of Benton").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Village of Benton: la ordenanza sobre animales, con notas"
    )
    page.get_by_label("Buscar en el texto").fill("license")
    page.get_by_role("button", name="Buscar", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("contiene")
    expect(page.locator(".ord-words > [lang='en']").first).to_be_visible()  # the adopted words, read as English

    page.goto(f"{live_server.url}/no-such-page/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Página no encontrada")

    page.goto(f"{live_server.url}/pet/{links.pet_token(dog.pk)}/")
    page.get_by_label("Se perdió").check()
    page.get_by_label("¿En qué fecha?").fill(timezone.localdate().isoformat())
    page.get_by_role("button", name="Enviar").click()
    expect(page.get_by_text("Gracias.")).to_be_visible()
    expect(page.get_by_text("Registrado como: reportado como perdido")).to_be_visible()

    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Solicitar o renovar en línea en Village of Benton").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Solicitar una licencia para perro")
