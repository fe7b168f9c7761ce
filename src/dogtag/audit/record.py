import json

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.forms.models import model_to_dict

from dogtag.audit import chain
from dogtag.audit.action_names import Action
from dogtag.audit.models import AuditEvent

ACTIONS = frozenset(Action.values)  # read once: TextChoices.values builds its list on every access


class _Encoder(DjangoJSONEncoder):
    def default(self, o):
        try:
            return super().default(o)
        except TypeError:
            return str(o)  # a stored file's name


def snapshot(obj) -> dict:
    """The model's own fields as JSON values (dates as ISO text, amounts as text, structures kept)."""
    data = model_to_dict(obj, fields=[f.name for f in obj._meta.concrete_fields])
    return json.loads(json.dumps(data, cls=_Encoder))


def save_and_record(obj, *, acting_user, action: Action | str, before: dict | None = None):
    """Save the row and write its one audit event: the end of every action that changes one record."""
    obj.save()
    record(acting_user=acting_user, action=action, obj=obj, before=before)
    return obj


def record(*, acting_user, action: Action | str, obj, before: dict | None = None) -> AuditEvent:
    """One audit row for one change; must run inside the action's transaction."""
    assert transaction.get_connection().in_atomic_block, "audit.record runs inside the action's transaction"
    return chain.append(event(acting_user=acting_user, action=action, obj=obj, before=before))


def record_each(*, acting_user, action: Action | str, objs: list) -> list[AuditEvent]:
    """One audit row for each of `objs`, new records of one action (a clinic's certificates)."""
    return record_all([event(acting_user=acting_user, action=action, obj=obj) for obj in objs])


def record_all(events: list[AuditEvent]) -> list[AuditEvent]:
    """The events of one action made with `event` (a payment's, then the license's), chained and
    written in their order: in one statement on PostgreSQL (`chain.append_all`)."""
    assert transaction.get_connection().in_atomic_block, "audit.record runs inside the action's transaction"
    return chain.append_all(events)


def event(*, acting_user, action: Action | str, obj, before: dict | None = None) -> AuditEvent:
    """The audit row `record` writes, not yet saved (`chain.append` chains and saves it)."""
    if action not in ACTIONS:
        raise ValueError(f"{action!r} is not an audit action: add it to audit.action_names.Action")
    return AuditEvent(
        municipality_id=getattr(obj, "municipality_id", None),
        actor=acting_user if acting_user and acting_user.is_authenticated else None,
        action=action,
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        before=before,
        after=snapshot(obj),
    )
