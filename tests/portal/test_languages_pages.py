"""Every page a resident reaches, in Spanish: the annotated ordinance's own words around the adopted
text, the owner's pet report and its confirmation, the household's and the citation's pay pages,
the pages for a page not found and a server error, the "why" box beside a fee, a renewal link
opened on a new device, and the front page's links named by municipality. Each is read as a
resident's screen reader reads it (its text and its accessible names) and holds no English word
but the data (names, the municipality's name) and what is marked `lang="en"` (the ordinance's
words as adopted)."""

import re
from datetime import timedelta

from django.test import Client, SimpleTestCase, override_settings
from django.urls import path
from tinyhtml5 import parse

from dogtag.enforcement import actions as enforcement
from dogtag.lib import links
from dogtag.portal.models import Application
from dogtag.registry import actions as registry
from dogtag.registry.models import Municipality
from dogtag.urls import urlpatterns as dogtag_urls
from tests.base import on
from tests.payments.base import DAY, PaymentsTestCase
from tests.payments.support import patch_env
from tests.portal.helpers import FULL, confirm_address, upload

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es-US,es;q=0.9"}
# Words no Spanish sentence uses, and an English one always does.
ENGLISH = re.compile(r"\b(the|you|your|and|is|are|this|that|for|with|of|to|by|on|no longer|has|we|our|not)\b", re.I)


def read_aloud(response) -> str:
    """What a screen reader reads of the page: the text, and the names and hints given in
    attributes (aria-label, title, alt, placeholder), without what is marked as another language
    (`lang="en"`: the adopted text) and without scripts and styles. (tinyhtml5: WeasyPrint's parser.)"""
    words = []

    def walk(node, top=False):
        if node.tag in ("script", "style") or (not top and node.get("lang", "es") != "es"):
            words.append(node.tail or "")
            return
        words.extend(node.get(a, "") for a in ("aria-label", "title", "alt", "placeholder"))
        words.append(node.text or "")
        for child in node:
            walk(child)
        words.append(node.tail or "")

    walk(parse(response.content.decode(), namespace_html_elements=False), top=True)
    return " ".join(" ".join(words).split())


def english_left(response, *data: str) -> list[str]:
    """The English words a Spanish page still reads, once the data it shows (names) is set aside."""
    text = read_aloud(response)
    for each in sorted((str(d) for d in data if d), key=len, reverse=True):
        text = text.replace(each, " ")
    return sorted({m.group(0).lower() for m in ENGLISH.finditer(text)})


def broken(request):
    raise RuntimeError("a fault of the server's")


# Dogtag's URLs with the found-dog page broken: a resident's page that fails.
urlpatterns = [path("found/", broken, name="portal-found"), *dogtag_urls]


@on(DAY)
class SpanishPagesTests(PaymentsTestCase):
    """PaymentsTestCase: Benton's fees and tags, its card processor (a Stripe test account)."""

    def setUp(self):
        super().setUp()
        self.client = Client(**SPANISH)
        self.names = (
            [str(m) for m in Municipality.objects.all()]
            + [f"{m.county} County" for m in Municipality.objects.all()]
            + ["Pat Owner", "Rex", "Maple", "Dogtag"]
        )

    def spanish(self, response, *data):
        self.assertEqual(response.headers["Content-Language"], "es")
        self.assertContains(response, '<html lang="es">', status_code=response.status_code)
        self.assertEqual(english_left(response, *self.names, *data), [], read_aloud(response))

    def test_the_annotated_ordinance_speaks_spanish_around_the_adopted_text(self):
        index = self.client.get("/ordinance/")
        self.assertContains(index, "Ordenanzas sobre animales")
        self.spanish(index)
        page = self.client.get("/ordinance/benton/")
        self.assertContains(page, "la ordenanza sobre animales, con notas")
        self.assertContains(page, 'lang="en"')  # the adopted words, read as English
        self.spanish(page)
        found = self.client.get("/ordinance/benton/", {"q": "license"})
        self.assertContains(found, "contienen “license”")
        self.spanish(found, "license")

    def test_the_owners_pet_report_and_its_confirmation_are_spanish(self):
        registry.update_person(self.owner, acting_user=self.clerk, language="es")
        pet = f"/pet/{links.pet_token(self.dog.pk)}/"
        page = self.client.get(pet)
        self.assertContains(page, "¿Qué pasó?")
        self.assertContains(page, "Se perdió")
        self.spanish(page)
        r = self.client.post(pet, {"kind": "lost", "happened_on": "2026-02-09", "note": "cerca del parque"})
        self.assertRedirects(r, pet, fetch_redirect_response=False)
        page = self.client.get(pet)
        self.assertContains(page, "Gracias.")
        self.assertContains(page, "9 de febrero de 2026")
        self.spanish(page)
        bad = self.client.post(pet, {"kind": "found", "happened_on": "2099-01-01"})
        self.spanish(bad)

    def test_the_household_pay_page_is_spanish(self):
        self.client.cookies["django_language"] = "es"
        app = self.sent_application()
        page = self.client.get(f"/pay/{app.token}/household/")
        self.assertContains(page, "Pagar por todos sus animales con tarjeta")
        self.assertContains(page, "Pagar $10.00 con tarjeta")
        self.spanish(page)

    def test_the_citation_pay_pages_and_the_short_form_are_spanish(self):
        citation = enforcement.issue_citation(
            acting_user=self.officer, municipality=self.benton, person=self.owner, animal=self.dog,
            violation="s. 174.042", description="unlicensed", violated_on=DAY - timedelta(days=3),
        )  # fmt: skip
        signed = f"/pay-citation/{links.citation_pay_token(citation.pk)}/"
        refused = self.client.get(signed)  # Benton takes forfeitures at its counter
        self.assertContains(refused, f"Pagar la citación {citation.pk}")
        self.spanish(refused, "unlicensed", citation.violation_cited)
        with patch_env({"DOGTAG_ONLINE_FORFEITURES_BENTON": "true"}):
            page = self.client.get(signed)
            self.assertContains(page, f"Pagar ${citation.forfeiture} con tarjeta")
            self.spanish(page, "unlicensed", citation.violation_cited)
        short = self.client.get(f"/c/{links.citation_short_code(citation.pk)}/")
        self.assertRedirects(short, signed, fetch_redirect_response=False)
        wrong = self.client.get("/c/nonsense/")
        self.assertContains(wrong, "Página no encontrada", status_code=404)
        self.spanish(wrong)

    def test_a_page_not_found_is_spanish(self):
        for url in ("/no-such-page/", f"/pet/{links.pet_token(0)}/", "/pay-citation/1/"):
            with self.subTest(url=url):
                r = self.client.get(url)
                self.assertContains(r, "Página no encontrada", status_code=404)
                self.spanish(r)

    def test_the_why_box_beside_a_fee_is_spanish(self):
        self.client.cookies["django_language"] = "es"
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post("/apply/", {"municipality": self.benton.pk, "email": "dana@example.org"})
        app = Application.objects.get(email="dana@example.org")
        confirm_address(self.client, app)
        self.client.post(f"/apply/a/{app.token}/", {**FULL, "step": "review", "rabies_certificate_file": upload()})
        app.refresh_from_db()
        page = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertContains(page, "¿por qué?")
        self.spanish(page, *app.data.values())

    def test_a_renewal_link_on_a_new_device_speaks_the_owners_language(self):
        registry.update_person(self.owner, acting_user=self.clerk, language="es")
        english = Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
        with self.captureOnCommitCallbacks(execute=True):
            r = english.get(f"/renew/{links.renewal_token(self.dog.pk, 2026)}/")
        application = Application.objects.get(animal=self.dog)
        self.assertRedirects(r, f"/apply/a/{application.token}/", fetch_redirect_response=False)
        self.assertEqual(application.language, "es")
        self.assertEqual(english.cookies["django_language"].value, "es")
        self.assertContains(english.get(r["Location"], follow=True), '<html lang="es">')
        # A language chosen on this device is the person's choice too, and stands.
        chosen = Client(HTTP_ACCEPT_LANGUAGE="es")
        chosen.cookies["django_language"] = "en"
        r = chosen.get(f"/pet/{links.pet_token(self.dog.pk)}/")
        self.assertContains(r, '<html lang="en">')
        self.assertContains(Client().get(f"/pet/{links.pet_token(self.dog.pk)}/"), '<html lang="es">')


@on(DAY)
class FrontPageLinksTests(PaymentsTestCase):
    def test_each_apply_link_is_named_by_its_municipality_in_both_languages(self):
        names = sorted(str(m) for m in Municipality.objects.all())
        for client, words in (
            (Client(), "Apply or renew online in {}"),
            (Client(**SPANISH), "Solicitar o renovar en línea en {}"),
        ):
            tree = parse(client.get("/").content.decode(), namespace_html_elements=False)
            links_named = sorted(
                " ".join("".join(a.itertext()).split()) for a in tree.iter("a") if a.get("class") == "button"
            )
            self.assertEqual(links_named, sorted(words.format(name) for name in names))


@override_settings(ROOT_URLCONF=__name__)
class ServerErrorTests(SimpleTestCase):
    """SimpleTestCase: the page for a server error opens no database, and Django renders it with
    no context processors (the fault may be the database's)."""

    def test_a_server_error_on_a_residents_page_is_answered_in_spanish(self):
        r = Client(raise_request_exception=False, **SPANISH).get("/found/")
        self.assertEqual(r.status_code, 500)
        self.assertContains(r, '<html lang="es">', status_code=500)
        self.assertContains(r, "Algo salió mal", status_code=500)
        self.assertEqual(english_left(r, "Dogtag"), [], read_aloud(r))
        r = Client(raise_request_exception=False).get("/found/")
        self.assertContains(r, "Something went wrong", status_code=500)
