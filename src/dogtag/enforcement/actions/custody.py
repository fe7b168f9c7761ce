"""Keeping a declared dog (River Hills § 2.14(6)[e](1)(viii), (ix)): the owner's notice of an
escape, bite or attack, and the officer's finding of a failure to comply, which revokes the dog's
license (and, from that day, its vicious-dog permit) and leaves the dog subject to seizure."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag.audit.action_names import Action
from dogtag.enforcement import law
from dogtag.enforcement.actions.cases import OFFICERS, already, as_date, set_deadline
from dogtag.enforcement.models import ComplianceFailure, EscapeNotification
from dogtag.lib.dates import shown, today
from dogtag.licensing.actions import revoke_license
from dogtag.licensing.models import License
from dogtag.registry.actions import save_record


def _in_force(decl, field):
    if not decl.in_force:
        raise ValidationError({field: f"The declaration is {decl.get_status_display().lower()}."})


@transaction.atomic
def record_escape_notification(
    decl, *, acting_user, event, occurred_at, notice_method, notified_at=None, immediate=False, description=""
) -> EscapeNotification:
    """The declared dog escaped and was at large, or bit or attacked a person or domestic
    animal: what happened, and when and how its owner or keeper notified the police. Whether the
    notice was immediate is the officer's finding; the engine says whether the duty binds."""
    _in_force(decl, "event")
    recorded = decl.escape_notifications.filter(event=event, occurred_at=occurred_at).first()
    if recorded is not None:
        notice = {"notice_method": notice_method, "notified_at": notified_at, "description": description}
        if already(recorded, acting_user=acting_user, roles=OFFICERS, **notice):
            return recorded
        raise ValidationError({"occurred_at": f"This is on record: {recorded}. Record only a new event here."})
    occurred_on = timezone.localtime(occurred_at).date()
    if occurred_on < decl.determined_on:
        raise ValidationError(
            {
                "occurred_at": f"That is before the declaration ({shown(decl.determined_on)}): "
                "record only what came after."
            }
        )
    facts = {"classification": decl.classification, "event": event}
    decision = law.ask(decl.municipality, "dangerous_dog_escape_notice", facts, occurred_on, field="event")
    if not decision.value.required:
        raise ValidationError({"event": "; ".join(decision.notes) or "The ordinance requires no such notice."})
    not_notified = notice_method == EscapeNotification.Method.NOT_NOTIFIED
    if not_notified and notified_at:
        raise ValidationError({"notified_at": "The owner did not notify the police: leave the time blank."})
    if not not_notified and not notified_at:
        raise ValidationError({"notified_at": "When did the owner or keeper notify the police?"})
    if notified_at and notified_at < occurred_at:
        raise ValidationError({"notified_at": "The notice comes after what happened."})
    notification = EscapeNotification(
        municipality_id=decl.municipality_id,
        declaration=decl,
        event=event,
        occurred_at=occurred_at,
        description=description,
        notice_method=notice_method,
        notified_at=notified_at,
        immediate=bool(immediate) and not not_notified,
        decision=law.stored(decision),
    )
    return save_record(
        notification, acting_user=acting_user, action=Action.DECLARATION_ESCAPE_NOTIFICATION, roles=OFFICERS
    )


@transaction.atomic
def record_failure_to_comply(decl, *, acting_user, found_on, failure) -> ComplianceFailure:
    """The officer finds the owner failed to comply; the ordinance revokes the license in force
    (the tag retired) and the permit for keeping the dog, and the dog may be seized: the case gets
    that step, due at once, with the law."""
    found_on = as_date(found_on) or today()
    recorded = decl.compliance_failures.filter(found_on=found_on, failure=(failure or "").strip()).first()
    if recorded is not None and already(recorded, acting_user=acting_user, roles=OFFICERS):
        return recorded
    _in_force(decl, "failure")
    if not (failure or "").strip():
        raise ValidationError({"failure": "Say which requirement or condition was not met, and how it was found."})
    if found_on < decl.determined_on:
        raise ValidationError({"found_on": f"That is before the declaration ({shown(decl.determined_on)})."})
    decision = law.ask(decl.municipality, "failure_to_comply", {"classification": decl.classification}, found_on)
    if not decision.value.applies:
        raise ValidationError({"failure": "; ".join(decision.notes) or "The ordinance attaches no consequence here."})
    in_force = License.objects.filter(
        animal=decl.animal, voided_at=None, issued_on__lte=found_on, expires_on__gte=found_on
    ).first()
    finding = ComplianceFailure(
        municipality_id=decl.municipality_id,
        declaration=decl,
        found_on=found_on,
        failure=failure.strip(),
        revoked_license=in_force if decision.value.revoke_license else None,
        decision=law.stored(decision),
    )
    finding = save_record(finding, acting_user=acting_user, action=Action.DECLARATION_FAILURE_TO_COMPLY, roles=OFFICERS)
    reason = f"Revoked: failure to comply found on {shown(found_on)} ({law.sections(decision)}): {finding.failure}"
    if in_force is not None and decision.value.revoke_license:
        revoke_license(in_force, acting_user=acting_user, reason=reason[:300])
    if decision.value.seizure:
        label = "Seize and impound the dog (subject to immediate seizure)"
        set_deadline(decl.case, "seizure", label, found_on, decision)
    return finding
