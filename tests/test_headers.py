"""Content-Security-Policy and Permissions-Policy on every page (issue 14, finding 9), and no
template that the policy would break: no inline script, no inline style, no event attribute."""

import re
from pathlib import Path

from tests.base import BaseTestCase

SRC = Path(__file__).resolve().parent.parent / "src" / "dogtag"
# Printed documents (WeasyPrint) and emails are not served to a browser under the policy.
NOT_SERVED = re.compile(r"/(pdf|email)/|_pdf\.html$|documents/base\.html$|/(certificate|receipt|tag_roll)\.html$")
INLINE = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|hx-on|javascript:", re.I)


class HeaderTests(BaseTestCase):
    def test_staff_and_public_pages_carry_both_policies(self):
        self.login(self.clerk)
        for path in ("/m/benton/", "/found/", "/login/", "/api/v1/municipalities"):
            r = self.client.get(path)
            policy = r["Content-Security-Policy"]
            self.assertIn("script-src 'self'", policy, path)
            self.assertIn("style-src 'self'", policy, path)
            self.assertIn("frame-ancestors 'none'", policy, path)
            self.assertNotIn("unsafe-inline", policy, path)
            self.assertNotIn("unsafe-eval", policy, path)
            self.assertIn("camera=()", r["Permissions-Policy"], path)
            self.assertIn("geolocation=()", r["Permissions-Policy"], path)


def test_no_served_template_has_inline_script_or_style():
    found = []
    for template in sorted(SRC.rglob("templates/**/*.html")):
        if NOT_SERVED.search(template.as_posix()):
            continue
        for number, line in enumerate(template.read_text().splitlines(), 1):
            if INLINE.search(line):
                found.append(f"{template.relative_to(SRC)}:{number}: {line.strip()[:100]}")
    assert not found, "inline script or style the Content-Security-Policy refuses:\n" + "\n".join(found)


class NoStoreTests(BaseTestCase):
    """Pages, PDFs and API answers with owners' data carry `Cache-Control: no-store` through the
    real middleware stack (issue 27 §9); every staff page is checked in
    tests/accounts/test_isolation.py. A public seal keeps its own caching, static files theirs."""

    def assert_not_stored(self, response, what):
        self.assertEqual(
            set(response["Cache-Control"].replace(" ", "").split(",")),
            {"max-age=0", "no-cache", "no-store", "must-revalidate", "private"},
            what,
        )

    def test_the_portal_application_staff_pages_and_the_api_are_not_stored(self):
        from dogtag.accounts.actions import issue_api_token
        from tests.portal.fixtures import benton_application

        application = benton_application(self)
        response = self.client.get(f"/apply/a/{application.token}/")
        self.assertContains(response, "dana@example.org")
        self.assert_not_stored(response, "the resident's application")
        self.assert_not_stored(self.client.get("/apply/"), "the portal's first page")
        token = issue_api_token(acting_user=self.clerk, user=self.clerk, name="clinic")[1]
        response = self.client.get(f"/api/v1/people/{self.owner.pk}", HTTP_AUTHORIZATION=f"Bearer {token}")
        self.assertEqual(response.status_code, 200)
        self.assert_not_stored(response, "an owner through the API")
        self.login(self.clerk)
        response = self.client.get(f"/people/{self.owner.pk}/")
        self.assertContains(response, self.owner.name)
        self.assert_not_stored(response, "an owner's page")

    def test_a_view_that_chose_public_caching_keeps_it(self):
        from django.http import HttpResponse
        from django.test import RequestFactory

        from dogtag.lib.no_store import NoStoreMiddleware

        def public(request):
            response = HttpResponse("seal")
            response["Cache-Control"] = "public, max-age=3600"
            return response

        response = NoStoreMiddleware(public)(RequestFactory().get("/m/benton/seal.png"))
        self.assertEqual(response["Cache-Control"], "public, max-age=3600")
        self.assert_not_stored(NoStoreMiddleware(lambda r: HttpResponse("x"))(RequestFactory().get("/")), "plain")
