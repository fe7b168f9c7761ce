"""One date format on screen: `March 1, 2027`. Every page the Benton clerk and the officer can
open, with one record of each kind, is read as a person reads it (the text, not the markup:
a date field's ISO value and a link's query are data) and must show no ISO or numeric date."""

import re
from datetime import date
from html.parser import HTMLParser

from dogtag.licensing.actions import store_tag_return_list
from dogtag.portal.models import Application
from dogtag.registry.models import Municipality
from tests.accounts import test_isolation as iso
from tests.base import BaseTestCase
from tests.enforcement.fixtures import benton_cases
from tests.licensing.base import benton_license, benton_reminder_letters, benton_renewal_run, benton_replacement_tag
from tests.licensing.kennel_fixtures import benton_multiple_dog_and_kennel
from tests.permits.fixtures import benton_permits
from tests.portal.fixtures import benton_application

NOT_ONE_FORMAT = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b")


class VisibleText(HTMLParser):
    """The text a reader sees: no script, no style, no attribute."""

    def __init__(self):
        super().__init__()
        self.parts, self.hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style") and self.hidden > 0

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


class DateFormatTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.ownership = cls.dog.ownerships.get()
        cls.fee, cls.license = benton_license(cls)
        cls.tag = benton_replacement_tag(cls)
        cls.renewal_run = benton_renewal_run(cls)
        benton_reminder_letters(cls)
        cls.tag_return_list = store_tag_return_list(municipality=cls.benton, license_year=2026, on=date(2026, 12, 31))
        benton_cases(cls)
        benton_multiple_dog_and_kennel(cls)
        benton_application(cls)
        benton_permits(cls)
        iso.benton_card_refund(cls)
        iso.benton_ruling(cls)
        iso.benton_amendment(cls)
        iso.benton_clinic_file(cls)
        iso.benton_text_consent(cls)
        cls.benton_membership = iso.Membership.objects.get(user=cls.clerk, municipality=cls.benton)  # staff pages
        cls.import_run = iso.ImportRun.objects.create(
            municipality=cls.benton, file_name="roll.csv", file_sha256="0" * 64, started_by=cls.clerk
        )

    def pages(self):
        for name, route in iso.patterns():
            if name in iso.OPEN_PAGES - {"portal-home"} or name in ("calendar-reset",):
                continue
            if iso.is_file(name, route):  # no page text to read; each answers at every instant in test_isolation
                continue
            path = "/" + route.replace("<slug:slug>", "benton").replace("<int:year>", "2026")
            if "<int:pk>" in path:
                key = name if name in iso.OBJECTS else next((k for k in iso.OBJECTS if name.startswith(k + "-")), None)
                path = path.replace("<int:pk>", str(getattr(self, iso.OBJECTS[key]).pk))
            if "<" not in path:
                yield name, path

    def scan(self, user, *extra):
        self.login(user)
        seen, bad = 0, []
        for name, path in [*self.pages(), *extra]:
            r = self.client.get(path)
            if r.status_code != 200 or not r.get("Content-Type", "").startswith("text/html"):
                continue
            seen += 1
            text = visible_text(r.content.decode())
            bad += [
                f"{name} ({path}): …{text[max(0, m.start() - 60) : m.end() + 20]}…"
                for m in NOT_ONE_FORMAT.finditer(text)
            ]
        self.assertEqual(bad, [], "\n".join(bad))
        return seen

    def test_the_clerks_pages_show_one_date_format(self):
        app = Application.objects.get()
        portal = [("portal-application", f"/apply/a/{app.token}/"), ("portal-review", f"/apply/a/{app.token}/review/")]
        self.assertGreater(self.scan(self.clerk, *portal), 60)

    def test_the_administrators_pages_show_one_date_format(self):
        self.assertGreater(self.scan(self.benton_admin), 60)

    def test_the_officers_pages_show_one_date_format(self):
        self.assertGreater(self.scan(self.officer), 30)

    def test_the_scan_sees_an_iso_date_in_text_and_not_in_a_field(self):
        html = '<p>Due 2026-03-02</p><input type="date" value="2026-03-02"><script>"2026-03-02"</script>'
        self.assertEqual(NOT_ONE_FORMAT.findall(visible_text(html)), ["2026-03-02"])
        self.assertEqual(NOT_ONE_FORMAT.findall(visible_text("<td>3/2/2026</td><td>March 2, 2026</td>")), ["3/2/2026"])

    def test_the_annotated_ordinances_show_one_date_format_beside_the_laws_own_words(self):
        """The adopted text is shown as it reads, its own dates included ("Ord#504, 7/16/08"); the
        quotes beside it are its words too. Everything Dogtag writes there has its dates in words."""
        quoted = re.compile(r'<p class="ord-words">.*?</p>|<div class="cites muted">.*?</div>', re.S)
        bad, seen = [], 0
        for user in (None, self.clerk, self.benton_admin):
            self.client.logout()
            if user:
                self.login(user)
            for m in Municipality.objects.all():
                r = self.client.get(f"/ordinance/{m.slug}/")
                self.assertEqual(r.status_code, 200)
                seen += 1
                html = r.content.decode()
                if m.slug == "river-hills":
                    self.assertIn("7/16/08", html)  # the law's own words, unchanged
                text = visible_text(quoted.sub("", html))
                bad += [
                    f"{m.slug}: …{text[max(0, x.start() - 60) : x.end() + 20]}…" for x in NOT_ONE_FORMAT.finditer(text)
                ]
        self.assertEqual(bad, [], "\n".join(bad))
        self.assertGreaterEqual(seen, 15)
