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
