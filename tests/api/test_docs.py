"""The API's Swagger page (issue 27 §9): behind login, under the Content-Security-Policy, its
scripts and styles Dogtag's own static files (django-ninja's vendored swagger-ui), no CDN."""

import re
from urllib.parse import urlsplit

from django.contrib.staticfiles import finders

from tests.base import BaseTestCase

REFERENCE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", re.I)


class DocsTests(BaseTestCase):
    def test_anonymous_visitors_are_sent_to_sign_in(self):
        response = self.client.get("/api/v1/docs")
        self.assertEqual(response.status_code, 302)
        self.assertTrue(response["Location"].startswith("/login/?next=/api/v1/docs"), response["Location"])
        self.assertNotIn(b"swagger", response.content.lower())

    def test_the_page_references_no_other_host_and_carries_the_policy(self):
        self.login(self.clerk)
        response = self.client.get("/api/v1/docs")
        self.assertEqual(response.status_code, 200)
        page = response.content.decode()
        references = REFERENCE.findall(page)
        self.assertTrue(any("swagger-ui-bundle" in r for r in references), references)
        for reference in references:
            parts = urlsplit(reference)
            self.assertEqual((parts.scheme, parts.netloc), ("", ""), f"{reference} is on another host")
            self.assertTrue(parts.path.startswith("/static/"), reference)
            self.assertIsNotNone(finders.find(parts.path.removeprefix("/static/")), f"{reference} is not served")
        self.assertNotIn("cdn", page.lower())
        policy = response["Content-Security-Policy"]
        self.assertIn("script-src 'self'", policy)
        self.assertIn("style-src 'self'", policy)
        self.assertNotIn("unsafe-inline", policy)
        # Its settings are a JSON block the policy does not run; every script has a src.
        self.assertEqual(re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", page), [])
        self.assertIn("no-store", response["Cache-Control"])

    def test_the_openapi_document_stays_open_to_integration_clients(self):
        response = self.client.get("/api/v1/openapi.json")
        self.assertEqual(response.status_code, 200)
        self.assertIn("paths", response.json())
