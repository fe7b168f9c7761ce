"""Uploads checked by content and refused early by size (issue 14, finding 7), and every file of
the bad-file corpus (tests/bad_files/) refused by the portal with a clear error, nothing kept."""

import io
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import SimpleTestCase, override_settings

from dogtag.lib import uploads
from dogtag.portal import actions
from dogtag.portal.models import Application
from tests.base import BaseTestCase
from tests.portal.helpers import FULL, JPEG, MEDIA, PDF, PNG

BAD_FILES = Path(__file__).resolve().parent.parent / "bad_files"


def corpus():
    """Every file of the corpus (the imports' bad rolls too), but its index and image.csv: that one is a
    real PNG photo, bad only as a roll, and a photo of a certificate is what the portal takes."""
    return sorted(
        p
        for p in BAD_FILES.rglob("*")
        if p.is_file() and p.suffix not in (".md", ".txt", ".py", ".yaml") and p.name != "image.csv"
    )


class ContentTests(SimpleTestCase):
    def check(self, content, name="file.pdf"):
        return uploads.check(SimpleUploadedFile(name, content))

    def test_real_pdf_png_and_jpeg_files_are_accepted_under_their_own_kind(self):
        self.assertEqual(self.check(PDF), (None, ".pdf"))
        self.assertEqual(self.check(PNG, "x.pdf"), (None, ".png"))
        self.assertEqual(self.check(JPEG), (None, ".jpg"))

    def test_a_pdf_header_in_front_of_an_html_page_is_refused(self):
        error, _ = self.check(b"%PDF-<html><script>alert(1)</script></html>\n%%EOF\n")
        self.assertEqual(
            error, "This file starts like a PDF but is not a readable PDF. Upload a photo (JPEG or PNG) or a PDF."
        )

    def test_a_png_header_in_front_of_anything_else_is_refused(self):
        error, _ = self.check(b"\x89PNG\r\n\x1a\n<html>")
        self.assertIn("starts like a PNG photo but is not a readable one", error)


@MEDIA
class CorpusTests(BaseTestCase):
    def test_the_corpus_is_there(self):
        self.assertGreaterEqual(len(corpus()), 10)

    @override_settings(DOGTAG_UPLOAD_LIMIT=10_000)  # the whole corpus from one address
    def test_every_bad_file_is_refused_beside_its_field_and_not_kept(self):
        app = actions.start_application(municipality=self.benton, email="dana@example.org")
        for path in corpus():
            with self.subTest(path.name):
                upload = SimpleUploadedFile(path.name, path.read_bytes())
                r = self.client.post(
                    f"/apply/a/{app.token}/", {**FULL, "step": "save", "rabies_certificate_file": upload}
                )
                self.assertContains(r, "Upload a photo (JPEG or PNG) or a PDF.", msg_prefix=path.name)
                app.refresh_from_db()
                self.assertFalse(app.rabies_certificate, path.name)
        self.assertEqual(Application.objects.get().rabies_certificate.name, "")


class RaiseOnRead(io.RawIOBase):
    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


@override_settings(DOGTAG_REQUEST_MAX_BYTES=11_000_000)
class EarlySizeTests(BaseTestCase):
    def test_a_60_mb_upload_is_refused_from_its_content_length_before_the_body_is_read(self):
        app = actions.start_application(municipality=self.benton, email="dana@example.org")
        r = self.client.generic(
            "POST",
            f"/apply/a/{app.token}/",
            CONTENT_LENGTH="60000000",
            CONTENT_TYPE="multipart/form-data; boundary=x",
            **{"wsgi.input": RaiseOnRead()},
        )
        self.assertContains(r, "The request is 60.0 MB; the largest accepted is 11 MB.", status_code=413)

    def test_the_api_says_so_in_json(self):
        r = self.client.generic(
            "POST", "/api/v1/municipalities/benton/people", CONTENT_LENGTH="60000000", **{"wsgi.input": RaiseOnRead()}
        )
        self.assertEqual(r.status_code, 413)
        self.assertIn("largest accepted is 11 MB", r.json()["detail"])

    def test_a_body_under_the_limit_goes_through(self):
        self.assertEqual(self.client.post("/found/", {"q": "x"}).status_code, 200)

    def posted(self, path, length):
        return self.client.generic("POST", path, b"x" * length, "text/csv").status_code

    def test_the_roll_import_has_its_own_limit_higher_or_lower(self):
        self.login(self.clerk)
        with self.settings(DOGTAG_REQUEST_MAX_BYTES=1_000, DOGTAG_IMPORT_MAX_BYTES=5_000):
            self.assertEqual(self.posted("/m/benton/import/", 3_000), 200)
            self.assertEqual(self.posted("/m/benton/import/", 6_000), 413)
            self.assertEqual(self.posted("/found/", 3_000), 413)
        with self.settings(DOGTAG_REQUEST_MAX_BYTES=5_000, DOGTAG_IMPORT_MAX_BYTES=1_000):
            self.assertEqual(self.posted("/m/benton/import/", 3_000), 413)
            self.assertEqual(self.posted("/found/", 3_000), 200)
