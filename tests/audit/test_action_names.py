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


# The licensing room's modules, which still name their actions as strings (checked against the list).
def action_values(tree):
    """The expressions given as `action=` or assigned to a name `action`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "action":
            yield node.value
        elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "action" for t in node.targets):
            yield node.value


def named_actions() -> tuple[set[str], list[str]]:
    """The actions the source names: each `Action.X`'s value, and each "noun.verb" string (as
    `module: string`, the free strings)."""
    typed, free = set(), []
    for module, _, tree in modules():
        for value in action_values(tree):
            for leaf in ast.walk(value):
                if isinstance(leaf, ast.Attribute) and getattr(leaf.value, "id", None) == "Action":
                    typed.add(Action[leaf.attr].value)
                elif isinstance(leaf, ast.Constant) and isinstance(leaf.value, str) and DOTTED.match(leaf.value):
                    typed.add(leaf.value)
                    free.append(f"{module}: {leaf.value}")
    return typed, free


class ActionNamesTests(SimpleTestCase):
    def test_it_lists_every_action_the_source_names(self):
        named, _ = named_actions()
        self.assertGreater(len(named), 90)
        self.assertEqual(sorted(named - set(Action.values)), [])

    def test_the_source_names_its_actions_from_the_typed_list(self):
        _, free = named_actions()
        self.assertEqual(free, [])

    def test_it_finds_a_free_string_action_name(self):
        tree = ast.parse('record(acting_user=u, action="fee.set", obj=o)\naction = Action.FEE_VOID')
        self.assertEqual(sorted(ast.unparse(v) for v in action_values(tree)), ["'fee.set'", "Action.FEE_VOID"])

    def test_it_labels_an_action_for_the_audit_page(self):
        self.assertEqual(label("license.issue"), "License issued")
        self.assertEqual(label(Action.FEE_VOID), "Fee voided")
        self.assertEqual(label("retired.name"), "retired — name")


class RefusedNameTests(BaseTestCase):
    def test_record_refuses_an_action_not_listed(self):
        with self.assertRaisesMessage(ValueError, "'license.issu' is not an audit action"), transaction.atomic():
            record(acting_user=self.clerk, action="license.issu", obj=self.benton)
