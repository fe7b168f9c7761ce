"""The pieces every procedure shares: a case with its deadlines, each stored with the law that
produced it, and one audited change at a time."""

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag.accounts.models import Role
from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import snapshot
from dogtag.enforcement import law
from dogtag.enforcement.models import (
    Case,
    Deadline,
)
from dogtag.lib.dates import shown, today
from dogtag.registry.actions import same_municipality, save_record
from dogtag.registry.models import RabiesVaccination

OFFICERS = (Role.OFFICER, Role.ADMINISTRATOR)
STAFF = (Role.CLERK, Role.OFFICER, Role.ADMINISTRATOR)
VETERINARIANS = (Role.VETERINARIAN, Role.OFFICER, Role.ADMINISTRATOR)


def as_date(value) -> date | None:
    return date.fromisoformat(value) if isinstance(value, str) else value


def not_in_future(**dates) -> None:
    """A step records what happened: a hearing held, a paper served or received, on a day
    that has come. Refuses each later date by its field."""
    on = today()
    errors = {
        field: f"{day:%B %-d, %Y} is in the future; record this on or after the day it happens."
        for field, day in dates.items()
        if day is not None and day > on
    }
    if errors:
        raise ValidationError(errors)


def already(obj, *, acting_user, roles, **fields) -> bool:
    """The step was sent again with what is on record (a double click, a resent page, an API
    call retried after a lost answer): there is nothing to write, and the action returns the
    record as it stands. The role is checked all the same."""
    require_role(acting_user, obj.municipality_id, roles)
    return all(_same(obj, name, value) for name, value in fields.items())


def _same(obj, name, value) -> bool:
    field = obj._meta.get_field(name)
    if field.is_relation:
        return getattr(obj, field.attname) == (value.pk if hasattr(value, "pk") else value)
    try:
        return getattr(obj, name) == field.to_python(value)
    except ValidationError:
        return False


def open_case(*, acting_user, municipality, kind, title, animal=None, owner=None, opened_on=None) -> Case:
    require_role(acting_user, municipality.pk, STAFF)
    same_municipality("animal", animal, municipality.pk)
    same_municipality("owner", owner, municipality.pk)
    if animal is not None and owner is None:
        owner = next((o.person for o in animal.current_owners(opened_on)), None)
    case = Case(
        municipality=municipality,
        kind=kind,
        title=title[:200],
        animal=animal,
        owner=owner,
        officer=acting_user,
        opened_on=opened_on or today(),
    )
    case.full_clean()
    case.save()
    return case


def set_deadline(case, key, label, due, decision=None, *, citations=None, notes=()) -> Deadline:
    """Store a deadline with the law that produced it; an open one with the same key is superseded."""
    case.deadlines.filter(key=key, done_on=None, superseded=False).update(superseded=True)
    due_at = due if isinstance(due, datetime) else None
    return Deadline.objects.create(
        municipality_id=case.municipality_id,
        case=case,
        key=key,
        label=label,
        due_on=timezone.localtime(due_at).date() if due_at else due,
        due_at=due_at,
        citations=citations if citations is not None else law.cites(decision),
        notes=list(decision.notes if decision is not None else ()) + list(notes),
    )


def meet(case, key, on, note=""):
    case.deadlines.filter(key=key, done_on=None, superseded=False).update(done_on=on, done_note=note[:300])


def drop(case, key):
    case.deadlines.filter(key=key, done_on=None, superseded=False).update(superseded=True)


def close(case, on, reason):
    case.closed_on = on
    case.close_reason = reason[:300]
    case.save(update_fields=["closed_on", "close_reason"])


def change(obj, *, acting_user, action, roles, **fields):
    """Set fields, validate and save with one audit event showing before and after."""
    before = snapshot(obj)
    for name, value in fields.items():
        setattr(obj, name, value)
    return save_record(obj, acting_user=acting_user, action=action, roles=roles, before=before)


def currently_immunized(animal, on: date) -> bool:
    """A rabies certificate in the registry, not void, covering `on`."""
    return RabiesVaccination.objects.filter(
        animal=animal, voided_at=None, vaccinated_on__lte=on, expires_on__gt=on
    ).exists()


@transaction.atomic
def close_case(case, *, acting_user, reason: str, closed_on=None) -> Case:
    if not reason.strip():
        raise ValidationError({"reason": "Say why the case is closed."})
    if case.closed_on:
        raise ValidationError({"reason": f"This case was closed on {shown(case.closed_on)}."})
    return change(
        case,
        acting_user=acting_user,
        action=Action.CASE_CLOSE,
        roles=STAFF,
        closed_on=as_date(closed_on) or today(),
        close_reason=reason,
    )
