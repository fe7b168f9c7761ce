"""The history says what changed in words: a stored decision by its value in words and its
sections, a name Dogtag keeps inside in words, a time in the municipality's zone (issue 29, bugs 2
and 9)."""

from django.test import SimpleTestCase

from dogtag.audit.display import changes
from dogtag.audit.models import AuditEvent

DECISION = {
    "value": {"conditions": ["proof_of_ownership", "current_rabies_vaccination"], "may_release": False},
    "citations": [
        {"jurisdiction": "wi-webster", "section": "§ 98-7", "quote": "proof of ownership"},
        {"jurisdiction": "wi", "section": "s. 173.23(1m)", "quote": "may release"},
    ],
    "notes": [],
    "not_set": [],
    "unconfirmed": [],
    "status": "answered",
    "text_incomplete": [],
    "readings": [],
}


class HistoryWordsTests(SimpleTestCase):
    def test_a_stored_decision_is_its_value_in_words_and_its_sections(self):
        event = AuditEvent(object_type="enforcement.impoundment", before={"decision": {}}, after={"decision": DECISION})
        [(label, before, after)] = changes(event)
        self.assertEqual(before, "—")
        self.assertEqual(
            after,
            "Conditions: proof of ownership, current rabies vaccination; may release: no (§ 98-7, s. 173.23(1m))",
        )
        self.assertNotIn("_", after)

    def test_a_time_is_shown_in_chicago_in_words(self):
        event = AuditEvent(object_type="licensing.license", before={"voided_at": None},
                           after={"voided_at": "2026-12-03T15:21:47Z"})  # fmt: skip
        [(_, _, after)] = changes(event)
        self.assertEqual(after, "December 3, 2026, 9:21 AM")
