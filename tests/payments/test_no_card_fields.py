"""No form in Dogtag accepts a card number (issue 26, "Done when"): every form class, every
template and every API schema is scanned for a card's fields (number, expiry, security code, or
the browser's `cc-` autofill names); the processor's own page takes the card."""

import importlib
import re
from pathlib import Path

from django import forms
from django.test import SimpleTestCase

import dogtag

SRC = Path(dogtag.__file__).resolve().parent
CARD_FIELD = re.compile(
    r"card[\s_-]*(number|num|no)\b|\bc(vc|vv2?|sc)\b|security[\s_-]*code|\bcc[-_](number|exp|csc|name)"
    r"|exp(iry|iration)?[\s_-]*(month|year|mm|yy)\b|\bpan\b",
    re.IGNORECASE,
)


def card_words(text: str) -> list[str]:
    return [m.group(0) for m in CARD_FIELD.finditer(text)]


class NoCardFieldTests(SimpleTestCase):
    def test_the_scan_finds_a_card_field_where_there_is_one(self):
        for sample in ('<input name="card_number">', 'autocomplete="cc-exp"', "cvc = forms.CharField()",
                       "Card number", "exp_month"):  # fmt: skip
            self.assertTrue(card_words(sample), sample)
        self.assertEqual(card_words("Pay $10.00 by card; card_reference pi_1; expires_on"), [])

    def test_no_form_class_has_a_card_field(self):
        for path in SRC.rglob("forms.py"):
            importlib.import_module(".".join(("dogtag", *path.relative_to(SRC).with_suffix("").parts)))
        seen, stack = 0, [forms.BaseForm]
        while stack:
            cls = stack.pop()
            stack.extend(cls.__subclasses__())
            if not cls.__module__.startswith("dogtag."):
                continue
            seen += 1
            for name, field in getattr(cls, "base_fields", {}).items():
                self.assertEqual(card_words(f"{name} {field.label or ''} {field.help_text}"), [], f"{cls}.{name}")
        self.assertGreater(seen, 20)

    def test_no_template_or_api_schema_names_a_card_field(self):
        templates = [p for p in SRC.rglob("*") if "templates" in p.parts and p.suffix in (".html", ".txt")]
        files = [*templates, *SRC.rglob("api.py"), *SRC.rglob("schemas.py"), *SRC.rglob("*views.py")]
        self.assertGreater(len(files), 100)
        found = {str(p.relative_to(SRC)): words for p in files if (words := card_words(p.read_text()))}
        self.assertEqual(found, {})
