"""Every audit action the source names is in `audit.action_names.Action`, and `record` refuses
one that is not."""

import ast
import re

from django.db import transaction
from django.test import SimpleTestCase

from dogtag.audit.action_names import Action, label
from dogtag.audit.record import record
from tests.architecture.source import modules
from tests.base import BaseTestCase

DOTTED = re.compile(r"^[a-z_]+\.[a-z_]+$")


def named_actions() -> set[str]:
    """The "noun.verb" strings given as `action=` or assigned to a name `action`."""
    found = set()
    for _, _, tree in modules():
        for node in ast.walk(tree):
            values = []
            if isinstance(node, ast.keyword) and node.arg == "action":
                values.append(node.value)
            elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "action" for t in node.targets):
                values.append(node.value)
            for value in values:
                for leaf in ast.walk(value):
                    if isinstance(leaf, ast.Constant) and isinstance(leaf.value, str) and DOTTED.match(leaf.value):
                        found.add(leaf.value)
    return found


class ActionNamesTests(SimpleTestCase):
    def test_it_lists_every_action_the_source_names(self):
        named = named_actions()
        self.assertGreater(len(named), 90)
        self.assertEqual(sorted(named - set(Action.values)), [])

    def test_it_labels_an_action_for_the_audit_page(self):
        self.assertEqual(label("license.issue"), "License issued")
        self.assertEqual(label(Action.FEE_VOID), "Fee voided")
        self.assertEqual(label("retired.name"), "retired — name")


class RefusedNameTests(BaseTestCase):
    def test_record_refuses_an_action_not_listed(self):
        with self.assertRaisesMessage(ValueError, "'license.issu' is not an audit action"), transaction.atomic():
            record(acting_user=self.clerk, action="license.issu", obj=self.benton)
