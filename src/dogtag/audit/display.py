"""An audit event's changes in the clerk's words: each field by its label, a choice by its
display name, a related record by its name, a yes/no as yes/no, structured values flattened."""

from datetime import date, datetime

from django.apps import apps
from django.core.exceptions import FieldDoesNotExist
from django.db import models

from dogtag.audit.action_names import label
from dogtag.lib import dates


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
            return dates.shown(date.fromisoformat(value))
        if len(value) > 10 and value[4] == "-" and value[10] == "T":
            return dates.shown(datetime.fromisoformat(value))
    except ValueError:
        pass
    return value


def _flat(value) -> str:
    if isinstance(value, str):
        return _day(value)
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')}: {_flat(v)}" for k, v in value.items() if v not in (None, "", [], {}))
    if isinstance(value, list):
        return ", ".join(_flat(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def shown(field, value) -> str:
    if value is None or value == "":
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
