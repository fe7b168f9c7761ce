"""An audit event's changes in the clerk's words: each field by its label, a choice by its
display name, a related record by its name, a yes/no as yes/no, structured values flattened."""

import re
from datetime import date, datetime

from django.apps import apps
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils import dateformat, timezone

from dogtag.audit.action_names import label

# A name Dogtag keeps inside (`proof_of_ownership`), which the history shows in words.
INTERNAL_NAME = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)+")


def _model(label):
    try:
        return apps.get_model(label)
    except (LookupError, ValueError):
        return None


def _field(model, name):
    try:
        return model._meta.get_field(name) if model else None
    except FieldDoesNotExist:
        return None


def _day(value: str) -> str:
    """An ISO date or time (a snapshot keeps them as JSON text) as `March 1, 2027` or
    `March 1, 2027, 9:21 AM` in the municipality's zone; else as it is."""
    try:
        if len(value) == 10:
            return dateformat.format(date.fromisoformat(value), "F j, Y")
        if len(value) > 10 and value[4] == "-" and value[10] == "T":
            at = datetime.fromisoformat(value)
            # the same words as the templates' `date:"F j, Y, g:i A"`, in the municipality's zone
            return dateformat.format(timezone.localtime(at) if timezone.is_aware(at) else at, "F j, Y, g:i A")
    except ValueError:
        pass
    return value


def _flat(value) -> str:
    if isinstance(value, str):
        return words(value) if INTERNAL_NAME.fullmatch(value) else _day(value)
    if isinstance(value, dict) and "value" in value and "citations" in value:
        # A decision the engine returned, kept on its record: what it decided and the sections.
        sections = ", ".join(dict.fromkeys(c.get("section", "") for c in value["citations"] if c.get("section")))
        decided = _flat(value["value"])
        decided = decided[:1].upper() + decided[1:]
        return f"{decided} ({sections})" if sections else decided
    if isinstance(value, dict):
        return "; ".join(f"{words(k)}: {_flat(v)}" for k, v in value.items() if v not in (None, "", [], {}))
    if isinstance(value, list):
        return ", ".join(_flat(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def shown(field, value) -> str:
    if value is None or value == "" or value == {} or value == []:
        return "—"
    if field is not None and field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(field, models.ForeignKey):
        related = field.related_model._default_manager.filter(pk=value).first()
        return str(related) if related is not None else f"#{value}"
    return _flat(value)


def changes(event) -> list[tuple[str, str, str]]:
    """(label, before, after) for each field that differs, in the model's field order."""
    before, after = event.before or {}, event.after or {}
    model = _model(event.object_type)
    names = [n for n in sorted(set(before) | set(after)) if before.get(n) != after.get(n)]
    order = {f.name: i for i, f in enumerate(model._meta.concrete_fields)} if model else {}
    rows = []
    for name in sorted(names, key=lambda n: (order.get(n, len(order)), n)):
        field = _field(model, name)
        label = str(field.verbose_name) if field is not None else name.replace("_", " ")
        rows.append((label, shown(field, before.get(name)), shown(field, after.get(name))))
    return rows


def words(value) -> str:
    """`proof_of_ownership` -> `proof of ownership`."""
    return str(value).replace("_", " ").replace(".", " — ")


def action_label(action: str) -> str:
    return label(action)
