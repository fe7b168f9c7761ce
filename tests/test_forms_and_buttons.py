"""How forms and actions read on staff pages: each field's error after its label and input, named by
the input's aria-describedby; the error summary at the top of a long page; destructive actions (Void,
Revoke, Refund, Deactivate) styled apart from the others (issue 29, confusing spots)."""

import re
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

from django.urls import reverse

from tests.base import BaseTestCase, on

TEMPLATES = Path(__file__).resolve().parent.parent / "src" / "dogtag"
DESTRUCTIVE = re.compile(r"^(Void|Revoke|Refund|Deactivate|Try again now)\b")


class Elements(HTMLParser):
    """Every start tag with its attributes and position, and the text of buttons and links."""

    def __init__(self, html):
        super().__init__()
        self.tags, self.open, self.actions = [], [], []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag in ("a", "button"):
            self.open.append([tag, attrs, ""])

    def handle_data(self, data):
        for element in self.open:
            element[2] += data

    def handle_endtag(self, tag):
        if tag in ("a", "button") and self.open:
            tag, attrs, text = self.open.pop()
            self.actions.append((tag, attrs.get("class") or "", " ".join(text.split())))

    def index(self, **wanted):
        for i, (tag, attrs) in enumerate(self.tags):
            if all(attrs.get(k) == v for k, v in wanted.items()):
                return i, tag, attrs
        raise AssertionError(f"no element with {wanted}")


def assert_error_follows(test, html, field_id):
    page = Elements(html)
    label, _, _ = page.index(**{"for": field_id})
    field, _, attrs = page.index(id=field_id)
    error, _, _ = page.index(id=f"{field_id}_error")
    test.assertLess(label, field, "the label comes first")
    test.assertLess(field, error, "the error comes after the input")
    test.assertIn(f"{field_id}_error", attrs.get("aria-describedby", "").split())
    test.assertEqual(attrs.get("aria-invalid"), "true")


def assert_destructive_styled(test, html):
    destructive = [(tag, cls, text) for tag, cls, text in Elements(html).actions if DESTRUCTIVE.match(text)]
    test.assertTrue(destructive, "the page offers a destructive action")
    for tag, cls, text in destructive:
        test.assertIn("danger", cls.split(), f"{tag} {text!r} is not styled as destructive")


@on(date(2026, 5, 20))
class FieldErrorTests(BaseTestCase):
    def test_a_void_form_puts_the_reason_error_after_its_label_and_input(self):
        self.login(self.vet)
        r = self.client.post(reverse("vaccination-void", args=[self.vaccination.pk]), {"reason": ""})
        self.assertEqual(r.status_code, 200)
        assert_error_follows(self, r.content.decode(), "id_reason")

    def test_a_form_puts_each_error_after_its_label_and_input(self):
        self.login(self.clerk)
        r = self.client.post(reverse("person-new", args=["benton"]), {"name": "", "postal_code": "ABCDE"})
        self.assertEqual(r.status_code, 200)
        html = r.content.decode()
        assert_error_follows(self, html, "id_name")
        assert_error_follows(self, html, "id_postal_code")

    def test_a_form_in_fieldsets_puts_each_error_after_its_label_and_input(self):
        self.login(self.officer)
        r = self.client.post(reverse("declaration-new", args=["benton"]), {"evidence": ""})
        self.assertEqual(r.status_code, 200)
        assert_error_follows(self, r.content.decode(), "id_evidence")

    def test_the_fee_schedule_puts_its_error_summary_at_the_top_linked_to_the_field(self):
        self.login(self.clerk)
        r = self.client.post(
            reverse("fees", args=["benton"]),
            {"key": "license_tax.unaltered", "amount": "-3", "effective_on": "2026-01-01", "authority": "Res. 1"},
        )
        self.assertEqual(r.status_code, 200)
        html = r.content.decode()
        summary = html.index('class="error-summary"')
        self.assertLess(summary, html.index("<h2"), "the summary is above the schedule's first table")
        self.assertIn('href="#id_amount"', html[summary : html.index("</div>", summary)])
        assert_error_follows(self, html, "id_amount")


@on(date(2026, 5, 20))
class DestructiveButtonTests(BaseTestCase):
    def test_every_destructive_button_or_link_in_a_template_carries_the_destructive_class(self):
        checked = 0
        for path in TEMPLATES.rglob("templates/**/*.html"):
            if "/pdf/" in str(path) or "/email/" in str(path):
                continue
            source = re.sub(r"\{[%{#].*?[%}#]\}", "", path.read_text())
            for tag, cls, text in Elements(source).actions:
                if tag == "a" and "button" not in cls.split() and not DESTRUCTIVE.match(text):
                    continue
                if DESTRUCTIVE.match(text):
                    checked += 1
                    self.assertIn("danger", cls.split(), f"{path.name}: {tag} {text!r}")
        self.assertGreaterEqual(checked, 8)

    def test_the_certificate_page_and_its_void_form_style_void_apart(self):
        self.login(self.vet)
        page = self.client.get(reverse("vaccination", args=[self.vaccination.pk]))
        assert_destructive_styled(self, page.content.decode())
        form = self.client.get(reverse("vaccination-void", args=[self.vaccination.pk]))
        assert_destructive_styled(self, form.content.decode())
        self.assertContains(form, '<button type="submit" class="danger">Void</button>', html=True)


def test_no_page_template_carries_an_inline_style():
    """The Content-Security-Policy allows styles only from Dogtag's stylesheets: a `style`
    attribute or element in a page is refused by the browser. PDFs (WeasyPrint) and emails, which
    the policy does not govern, keep theirs."""
    offenders = []
    for path in TEMPLATES.rglob("templates/**/*.html"):
        source = path.read_text()
        printed = re.search(r'\{% extends "(documents|enforcement/pdf)/base\.html" %\}', source)
        if printed or "/email/" in str(path) or "/pdf/" in str(path) or path.parent.name == "documents":
            continue
        if path.name == "hen_permit_pdf.html":
            continue
        if re.search(r"<style\b|\sstyle=", source):
            offenders.append(str(path.relative_to(TEMPLATES)))
    assert offenders == []
