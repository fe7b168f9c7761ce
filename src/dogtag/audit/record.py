from django.db import transaction
from django.forms.models import model_to_dict

from dogtag.audit.models import AuditEvent


def snapshot(obj) -> dict:
    """The model's own fields as JSON-ready values."""
    data = model_to_dict(obj, fields=[f.name for f in obj._meta.concrete_fields])
    return {k: (v if isinstance(v, (str, int, bool, type(None))) else str(v)) for k, v in data.items()}


def record(*, acting_user, action: str, obj, before: dict | None = None) -> AuditEvent:
    """One audit row for one change; must run inside the action's transaction."""
    assert transaction.get_connection().in_atomic_block, "audit.record runs inside the action's transaction"
    return AuditEvent.objects.create(
        municipality_id=getattr(obj, "municipality_id", None),
        actor=acting_user if acting_user and acting_user.is_authenticated else None,
        action=action,
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        before=before,
        after=snapshot(obj),
    )
