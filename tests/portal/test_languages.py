"""The resident's language: the portal in English or Spanish (Hmong once its catalogue is
complete), staff pages in English, and the language kept on the application and the person for
every later email and document."""

import gettext
import io
import os
import shutil
import subprocess
import tempfile
from datetime import date
from pathlib import Path

from django.core import mail
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.test import SimpleTestCase, override_settings
from django.utils import translation
from pypdf import PdfReader

from dogtag.lib import catalogues
from dogtag.licensing import actions as licensing
from dogtag.licensing import renewals
from dogtag.licensing.models import License
from dogtag.outbox.models import Message
from dogtag.portal.models import Application
from dogtag.registry import actions as registry
from tests.base import BaseTestCase, on
from tests.licensing.base import BENTON_FEES, set_fees
from tests.portal.helpers import FULL, MEDIA, confirm_address, upload

DAY = date(2026, 2, 10)
SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es-US,es;q=0.9,en;q=0.5"}


def messages(po: Path) -> set:
    return {(e.get("msgctxt"), e["msgid"]) for e in catalogues.entries(po)}


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


class OfferedLanguagesTests(SimpleTestCase):
    def test_spanish_is_offered_and_hmong_waits_for_its_translator(self):
        self.assertEqual(catalogues.complete_languages(), ("en", "es"))
        self.assertEqual(catalogues.untranslated("es"), [])
        self.assertIn("Check the cost", catalogues.untranslated("hmn"))

    def test_a_catalogue_is_complete_only_when_every_message_is_translated(self):
        po = self.tmp_po(
            'msgid ""\nmsgstr "Language: xx\\n"\n\n'
            'msgid "Send"\nmsgstr "Xa"\n\n'
            '#, fuzzy\nmsgid "Check the cost"\nmsgstr "Saib"\n\n'
            'msgid "There is a problem"\nmsgid_plural "There are problems"\nmsgstr[0] "Muaj"\nmsgstr[1] ""\n\n'
            '#~ msgid "Gone"\n#~ msgstr ""\n'
        )
        entries = catalogues.entries(po)
        self.assertEqual([e["msgid"] for e in entries], ["Send", "Check the cost", "There is a problem"])
        self.assertEqual(
            [e["msgid"] for e in entries if "fuzzy" in e["flags"] or not all(e["msgstr"])],
            ["Check the cost", "There is a problem"],
        )

    def tmp_po(self, text):
        path = Path(tempfile.mkdtemp(prefix="dogtag-po-")) / "django.po"
        path.write_text(text, encoding="utf-8")
        return path


@MEDIA
@on(DAY)
class PortalLanguageTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(DAY):
            set_fees(cls.clerk, cls.benton, BENTON_FEES)
            licensing.receive_tag_lot(
                acting_user=cls.clerk, municipality=cls.benton, license_year=2026, first_serial=501, last_serial=510
            )

    def test_the_browser_language_picks_spanish_and_the_page_says_so(self):
        r = self.client.get("/apply/", **SPANISH)
        self.assertContains(r, '<html lang="es">')
        self.assertContains(r, "Solicitar una licencia para perro")
        self.assertContains(r, "Iniciar mi solicitud")
        self.assertContains(r, "¿Dónde vive?")  # a form's label
        self.assertEqual(r.headers["Content-Language"], "es")
        self.assertIn("Accept-Language", r.headers["Vary"])
        # The switcher offers the other language, named in its own words.
        self.assertContains(r, '<button class="link" name="language" value="en" lang="en">English</button>')
        self.assertNotContains(r, "Hmoob")
        self.assertEqual(translation.get_language(), "en")  # only that request spoke Spanish

    def test_hmong_is_not_offered_until_its_catalogue_is_complete(self):
        r = self.client.get("/apply/", HTTP_ACCEPT_LANGUAGE="hmn")
        self.assertContains(r, '<html lang="en">')
        self.assertContains(r, 'value="es" lang="es">Español</button>')
        self.assertNotContains(r, 'value="hmn"')
        self.client.cookies["django_language"] = "hmn"  # a switch posted by hand is not honoured either
        self.assertContains(self.client.get("/apply/"), '<html lang="en">')

    def test_the_switcher_keeps_the_choice_and_returns_to_the_page(self):
        r = self.client.post("/language/", {"language": "es", "next": "/found/"})
        self.assertRedirects(r, "/found/", fetch_redirect_response=False)
        r = self.client.get("/found/")
        self.assertContains(r, "¿Encontró un perro?")
        r = self.client.post("/language/", {"language": "en", "next": "https://elsewhere.example/"})
        self.assertEqual(r["Location"], "/")  # never away from the site
        self.assertContains(self.client.get("/found/"), "Found a dog?")

    def test_staff_pages_stay_english_whatever_the_browser_asks(self):
        self.login(self.clerk)
        self.client.cookies["django_language"] = "es"
        r = self.client.get("/m/benton/applications/", **SPANISH)
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r.headers["Content-Language"], "en")
        self.assertNotContains(r, 'lang="es"')

    def test_a_spanish_application_is_answered_in_spanish_and_its_license_too(self):
        self.client.cookies["django_language"] = "es"
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post("/apply/", {"municipality": self.benton.pk, "email": "ana@example.org"})
        app = Application.objects.get(email="ana@example.org")
        self.assertEqual(app.language, "es")
        started = Message.objects.get(kind="application-started")
        self.assertEqual(started.subject, "Su solicitud de licencia para perro — Village of Benton")
        self.assertIn("Confirme que este es su correo electrónico", started.text)
        confirm_address(self.client, app)

        data = {**FULL, "step": "review", "rabies_certificate_file": upload(), "birth_date": "2099-01-01"}
        r = self.client.post(f"/apply/a/{app.token}/", data)
        r = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertContains(r, "Hay problemas")  # two: the birth date, and the shot before it
        self.assertContains(r, "La fecha de nacimiento no puede ser una fecha futura.")
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(f"/apply/a/{app.token}/", {**data, "birth_date": FULL["birth_date"]})
        r = self.client.get(f"/apply/a/{app.token}/review/")
        self.assertContains(r, "La licencia de su perro cuesta $10.00 porque no está esterilizado ni castrado")
        self.assertContains(r, "¿por qué?")
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(f"/apply/a/{app.token}/review/", {"provider": "counter"})
        received = Message.objects.get(kind="application-received")
        self.assertIn("Recibimos su solicitud de la licencia 2026 de Maple. El monto es $10.00.", received.text)

        # The clerk approves on an English page; the resident's email and certificate stay Spanish.
        self.client.cookies.pop("django_language")
        self.login(self.clerk)
        with self.captureOnCommitCallbacks(execute=True):
            r = self.client.post(
                f"/applications/{app.pk}/", {"decision": "approve", "method": "cash", "amount": "10.00"}
            )
        self.assertNotContains(r, "solicitud", status_code=302)
        license = License.objects.get(animal__name="Maple")
        self.assertEqual(license.holder.language, "es")  # kept on the person for every later notice
        approved = Message.objects.get(kind="application-approved")
        self.assertIn("La licencia 2026 de Maple ya está expedida: número de licencia 501", approved.text)
        self.assertIn("válida hasta el 31 de diciembre de 2026", approved.text)
        # The outbox rendered the certificate when it sent the email, after the approval committed.
        (email,) = [m for m in mail.outbox if m.subject == approved.subject]
        ((_, attached, _),) = email.attachments
        certificate = pdf_text(attached)
        self.assertIn("Licencia de perro 2026 n.º 501", certificate)
        self.assertIn("Nombre del dueño", certificate)
        self.assertIn("10 de febrero de 2026", certificate)
        # The clerk's own copy of the holder's papers is in the holder's language too.
        receipt = self.client.get(f"/licenses/{license.pk}/receipt.pdf")
        self.assertIn("Recibido de", pdf_text(receipt.content))

    def test_the_renewal_notice_and_its_email_speak_the_owners_language(self):
        with on(DAY):
            licensing.issue_license(self.dog, acting_user=self.clerk, payment={"method": "cash", "amount": "10.00"})
            registry.update_person(self.owner, acting_user=self.clerk, language="es")
        with on(date(2026, 12, 1)):
            licensing.receive_tag_lot(
                acting_user=self.clerk, municipality=self.benton, license_year=2027, first_serial=1, last_serial=9
            )
            with self.captureOnCommitCallbacks(execute=True):
                run = licensing.start_renewal_run(acting_user=self.clerk, municipality=self.benton, license_year=2027)
            chunk = run.chunks.get()
            licensing.print_renewal_chunk(chunk.pk)
        notice = Message.objects.get(kind="renewal-notice")
        self.assertEqual(notice.subject, "Renovación de la licencia 2027 de Rex — Village of Benton")
        self.assertIn("La licencia de Rex vence al final del año de licencia.", notice.text)
        with default_storage.open(renewals.chunk_name(chunk), "rb") as f:
            printed = pdf_text(f.read())
        self.assertIn("Renovación de la licencia 2027: Rex", printed)
        self.assertIn("Impuesto de la licencia 2027: $10.00", printed)


class CatalogueTests(SimpleTestCase):
    """makemessages run afresh on a copy of the source finds every marked message already in the
    committed catalogues (a marked string missing from es.po fails here), and the committed .mo
    files say what their .po files say (compiled after the last edit)."""

    def test_every_marked_message_is_in_the_catalogues(self):
        source = Path(catalogues.LOCALE).parent
        copy = Path(tempfile.mkdtemp(prefix="dogtag-makemessages-")) / "dogtag"
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__", "static", "law", "*.mo"))
        cwd = Path.cwd()
        try:
            os.chdir(copy)
            with override_settings(LOCALE_PATHS=[copy / "locale"]):
                call_command("makemessages", locale=["es", "hmn"], no_location=True, verbosity=0)
        finally:
            os.chdir(cwd)
        for language in ("es", "hmn"):
            fresh = messages(copy / "locale" / language / "LC_MESSAGES" / "django.po")
            kept = messages(catalogues.catalogue(language))
            self.assertEqual(fresh - kept, set(), f"marked but missing from {language}.po: run makemessages")
            self.assertEqual(kept - fresh, set(), f"in {language}.po but no longer marked: run makemessages")

    def test_the_compiled_catalogues_match_their_sources(self):
        for language in ("es", "hmn"):
            po = catalogues.catalogue(language)
            fresh = Path(tempfile.mkdtemp(prefix="dogtag-msgfmt-")) / "django.mo"
            subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(po)], check=True)
            with fresh.open("rb") as f, po.with_suffix(".mo").open("rb") as g:
                self.assertEqual(
                    gettext.GNUTranslations(g)._catalog, gettext.GNUTranslations(f)._catalog,
                    f"{language}: django.mo is older than django.po: run compilemessages",
                )  # fmt: skip
