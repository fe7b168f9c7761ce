"""The municipality's seal: an uploaded PNG or JPEG, checked by its content, shown beside the
name on its screens and printed on its receipts and certificates."""

import io
from datetime import date

from django.urls import reverse
from pypdf import PdfReader

from dogtag.registry.models import Municipality
from tests.base import BaseTestCase, on
from tests.licensing.base import benton_license
from tests.portal.helpers import MEDIA, PDF, PNG, upload


def images(response) -> int:
    return sum(len(page.images) for page in PdfReader(io.BytesIO(response.content)).pages)


@MEDIA
@on(date(2026, 2, 10))
class SealTests(BaseTestCase):
    def post(self, name, content):
        self.login(self.clerk)
        return self.client.post(reverse("municipality-seal", args=["benton"]), {"seal": upload(name, content)})

    def test_a_png_seal_is_shown_on_screens_and_printed_on_the_receipt_and_certificate(self):
        _, license = benton_license(self)
        self.login(self.clerk)
        self.assertEqual(images(self.client.get(reverse("license-receipt", args=[license.pk]))), 0)
        r = self.post("seal.png", PNG)
        self.assertRedirects(r, reverse("municipality", args=["benton"]))
        benton = Municipality.objects.get(slug="benton")
        self.assertTrue(benton.seal.name.endswith(".png"))
        image = self.client.get(reverse("municipality-seal-image", args=["benton"]))
        self.assertEqual((image.status_code, image["Content-Type"]), (200, "image/png"))
        self.assertEqual(b"".join(image.streaming_content), PNG)
        page = self.client.get(reverse("municipality", args=["benton"]))
        self.assertContains(page, f'<img class="seal" src="{reverse("municipality-seal-image", args=["benton"])}"')
        self.assertEqual(images(self.client.get(reverse("license-receipt", args=[license.pk]))), 1)
        self.assertEqual(images(self.client.get(reverse("license-certificate", args=[license.pk]))), 1)

    def test_a_pdf_or_a_renamed_text_file_is_refused_by_its_content(self):
        r = self.post("seal.pdf", PDF)
        self.assertContains(r, "The seal must be an image: a PNG or a JPEG, not a PDF.")
        r = self.post("seal.png", b"not an image at all")
        self.assertContains(r, "Upload the seal as a PNG or JPEG image.")
        self.assertFalse(Municipality.objects.get(slug="benton").seal)
        self.assertEqual(self.client.get(reverse("municipality-seal-image", args=["benton"])).status_code, 404)

    def test_only_the_clerk_of_the_municipality_uploads_it(self):
        self.login(self.officer)
        r = self.client.post(reverse("municipality-seal", args=["benton"]), {"seal": upload("seal.png", PNG)})
        self.assertEqual(r.status_code, 403)
        self.assertFalse(Municipality.objects.get(slug="benton").seal)
