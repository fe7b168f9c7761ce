"""Dangerous and vicious dogs: the finding and its service, removal, waivers and dogs declared
elsewhere. Hearings and appeals are in `hearings`, requirements in `requirements`, keeping a
declared dog in `custody`."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag import rules
from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.enforcement import law
from dogtag.enforcement.actions.cases import (
    OFFICERS,
    STAFF,
    already,
    as_date,
    change,
    close,
    currently_immunized,
    meet,
    not_in_future,
    open_case,
    set_deadline,
)
from dogtag.enforcement.actions.requirements import set_compliance, update_requirements
from dogtag.enforcement.models import (
    Case,
    Declaration,
)
from dogtag.lib.dates import shown, today
from dogtag.registry.actions import save_record


@transaction.atomic
def declare_dog(
    *,
    acting_user,
    municipality,
    animal,
    evidence,
    incidents,
    determined_on=None,
    fighting=False,
    propensity_shown=False,
) -> Declaration:
    """The officer's finding: the engine classifies the dog from the incidents (exceptions
    applied); the finding must rest on evidence."""
    require_role(acting_user, municipality.pk, OFFICERS)
    determined_on = as_date(determined_on) or today()
    # The same finding sent twice (a double click, a retried call) is the one on record; a new
    # finding on new incidents is a new declaration.
    recorded = Declaration.objects.filter(
        municipality=municipality, animal=animal, determined_on=determined_on, evidence=evidence,
        incidents=rules.to_json(incidents), moved_in_on=None,
    ).first()  # fmt: skip
    if recorded is not None:
        return recorded
    if not evidence.strip():
        raise ValidationError(
            {
                "evidence": "Say what the finding rests on (a written complaint of a witness willing "
                "to testify, bite reports, the officer's own observation, other evidence)."
            }
        )
    facts = {
        "incidents": incidents,
        "fighting": fighting,
        "propensity_shown": propensity_shown,
        "breed": animal.breed or None,
        "law_enforcement_dog": animal.working_status == "law-enforcement",
        "rabies_conforming": currently_immunized(animal, determined_on),
    }
    decision = law.ask(municipality, "dog_classification", facts, determined_on, field="incidents")
    value = decision.value
    if value.classification is None:
        note = "; ".join(decision.notes)
        raise ValidationError(
            {
                "incidents": "These facts do not bring the dog within the ordinance's definitions "
                f"({law.sections(decision) or 'no definition here'}){': ' + note if note else ''}."
            }
        )
    case = open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.DECLARATION,
        title=f"{animal} declared {value.classification.replace('_', ' ')}",
        animal=animal,
        opened_on=determined_on,
    )
    decl = Declaration(
        municipality=municipality,
        case=case,
        animal=animal,
        classification=value.classification,
        ground=value.ground,
        evidence=evidence,
        incidents=rules.to_json(incidents),
        classification_decision=law.stored(decision),
        determined_on=determined_on,
    )
    decl = save_record(decl, acting_user=acting_user, action=Action.DECLARATION_CREATE, roles=OFFICERS)
    set_deadline(case, "service", "Serve the written determination on the owner", determined_on, decision)
    set_compliance(decl)
    update_requirements(decl)
    return decl


@transaction.atomic
def serve_declaration(
    decl,
    *,
    acting_user,
    service_method,
    mailed_on=None,
    served_on=None,
    received_on=None,
    refused=False,
    posted_on=None,
) -> Declaration:
    mailed_on, served_on, received_on, posted_on = map(as_date, (mailed_on, served_on, received_on, posted_on))
    not_in_future(mailed_on=mailed_on, served_on=served_on, received_on=received_on, posted_on=posted_on)
    service = {"mailed_on": mailed_on, "served_on": served_on, "received_on": received_on, "posted_on": posted_on}
    if already(
        decl, acting_user=acting_user, roles=OFFICERS, service_method=service_method, refused=refused, **service
    ):
        return decl
    facts = {
        "method": service_method,
        "mailed_on": mailed_on,
        "received_on": received_on,
        "served_on": served_on,
        "refused": refused,
        "posted_on": posted_on,
    }
    decision = law.ask(decl.municipality, "notice_effective", facts, today(), field="service_method")
    effective = decision.value.effective_on
    if not decision.value.rule_set:
        # The ordinance names no rule: the notice takes effect the day the owner has it.
        effective = served_on or received_on or posted_on or mailed_on
    if effective is None:
        raise ValidationError({"posted_on": "; ".join(decision.notes) or "Give the date of service."})
    if effective < decl.determined_on:
        raise ValidationError(
            {"served_on": f"Service on {shown(effective)} is before the determination ({shown(decl.determined_on)})."}
        )
    decl = change(
        decl,
        acting_user=acting_user,
        action=Action.DECLARATION_SERVE,
        roles=OFFICERS,
        service_method=service_method,
        mailed_on=mailed_on,
        served_on=served_on,
        received_on=received_on,
        refused=refused,
        posted_on=posted_on,
        effective_on=effective,
    )
    meet(decl.case, "service", effective, decl.get_service_method_display())
    contest = law.ask(decl.municipality, "contest_deadline", {"served_on": effective}, today())
    if contest.value.applies:
        set_deadline(
            decl.case,
            "contest",
            "Last day for the owner's written request for a hearing",
            contest.value.deadline,
            contest,
        )
    return decl


@transaction.atomic
def serve_removal_notice(decl, *, acting_user, served_at) -> Declaration:
    not_in_future(served_at=timezone.localtime(served_at).date())
    decision = law.ask(
        decl.municipality,
        "removal_deadline",
        {"served_at": timezone.localtime(served_at).replace(tzinfo=None)},
        today(),
    )
    if not decision.value.applies:
        raise ValidationError({"served_at": "This ordinance sets no removal deadline."})
    served = f"Removal notice served {timezone.localtime(served_at):%Y-%m-%d %H:%M}"
    if already(decl, acting_user=acting_user, roles=OFFICERS, status_reason=served):
        return decl
    decl = change(
        decl, acting_user=acting_user, action=Action.DECLARATION_REMOVAL_NOTICE, roles=OFFICERS, status_reason=served
    )
    set_deadline(
        decl.case,
        "removal",
        "Remove the dog from the municipality",
        timezone.make_aware(decision.value.due_at),
        decision,
    )
    return decl


@transaction.atomic
def register_declared_elsewhere(
    *, acting_user, municipality, animal, classification, declared_by, moved_in_on, conditions, notified_on=None
) -> Declaration:
    """A dog declared dangerous or vicious by another municipality, county or state, moved in
    (River Hills § 2.14(6)[h]): its owner's notice to the police and the clerk, with the deadline,
    and this ordinance's requirements with theirs. The text does not say from when those run; the
    pack's `declared_elsewhere_requirements` reading (the engine's `declared_elsewhere_start`):
    from the owner's notice, or, if the village registered the dog first, from registration
    (today); the [g] permit, due "upon acquisition", from the move-in day."""
    require_role(acting_user, municipality.pk, OFFICERS)
    moved_in_on, notified_on = as_date(moved_in_on), as_date(notified_on)
    recorded = Declaration.objects.filter(
        municipality=municipality, animal=animal, declared_by=declared_by, moved_in_on=moved_in_on
    ).first()
    if recorded is not None:
        return recorded  # the same registration sent twice
    decision = law.ask(municipality, "declared_elsewhere_deadline", {"moved_in_on": moved_in_on}, today())
    if not decision.value.applies:
        raise ValidationError({"moved_in_on": "This ordinance has no rule for dogs declared elsewhere."})
    if not conditions.strip():
        raise ValidationError({"conditions": "Record the restrictions the other agency imposed."})
    case = open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.DECLARATION,
        title=f"{animal} declared {classification.replace('_', ' ')} by {declared_by}",
        animal=animal,
        opened_on=moved_in_on,
    )
    decl = Declaration(
        municipality=municipality,
        case=case,
        animal=animal,
        classification=classification,
        ground=f"declared {classification.replace('_', ' ')} by {declared_by}",
        evidence=conditions,
        classification_decision=law.stored(decision),
        determined_on=moved_in_on,
        effective_on=moved_in_on,
        declared_by=declared_by,
        moved_in_on=moved_in_on,
        owner_notified_on=notified_on,
        registered_on=today(),
    )
    decl = save_record(decl, acting_user=acting_user, action=Action.DECLARATION_DECLARED_ELSEWHERE, roles=OFFICERS)
    set_deadline(
        case, "declared_elsewhere", "The owner notifies the police and the clerk", decision.value.last_day, decision
    )
    if notified_on:
        meet(case, "declared_elsewhere", notified_on, "late" if notified_on > decision.value.last_day else "notified")
    set_compliance(decl)
    update_requirements(decl)
    return decl


@transaction.atomic
def record_elsewhere_notice(decl, *, acting_user, notified_on) -> Declaration:
    """The owner's notice to the police and the clerk of a dog declared elsewhere ([h]) that came
    after the village registered the dog; the requirements already run from registration."""
    notified_on = as_date(notified_on)
    if not decl.moved_in_on:
        raise ValidationError({"notified_on": "This dog was declared here, not elsewhere."})
    if decl.owner_notified_on:
        raise ValidationError({"notified_on": f"The owner's notice is on record: {shown(decl.owner_notified_on)}."})
    if notified_on < decl.moved_in_on:
        raise ValidationError({"notified_on": f"That is before the dog moved in ({shown(decl.moved_in_on)})."})
    decl = change(
        decl,
        acting_user=acting_user,
        action=Action.DECLARATION_ELSEWHERE_NOTICE,
        roles=STAFF,
        owner_notified_on=notified_on,
    )
    due = (
        decl.case.deadlines.filter(key="declared_elsewhere", superseded=False).values_list("due_on", flat=True).first()
    )
    meet(decl.case, "declared_elsewhere", notified_on, "late" if due and notified_on > due else "notified")
    return decl


@transaction.atomic
def apply_for_waiver(
    decl, *, acting_user, applied_on, no_subsequent_violations, complied_throughout, behavior_program_proof
) -> Declaration:
    applied_on = as_date(applied_on)
    if decl.status == Declaration.Status.WAIVED:
        if already(decl, acting_user=acting_user, roles=OFFICERS, status_reason=behavior_program_proof):
            return decl
        raise ValidationError({"__all__": f"The declaration was waived: {decl.status_reason}."})
    incident = decl.escape_notifications.first() if no_subsequent_violations else None
    if incident is not None:
        raise ValidationError(
            {
                "no_subsequent_violations": f"A subsequent violation is recorded: {incident} "
                f"({law.sections(incident.decision.get('citations', []))})."
            }
        )
    facts = {
        "classification": decl.classification,
        "declared_on": decl.determined_on,
        "no_subsequent_violations": no_subsequent_violations,
        "complied_throughout": complied_throughout,
        "behavior_program_completed": bool(behavior_program_proof.strip()),
    }
    decision = law.ask(decl.municipality, "declaration_waiver", facts, applied_on)
    if not decision.value.applies:
        raise ValidationError({"__all__": "; ".join(decision.notes)})
    if not decision.value.eligible:
        raise ValidationError(
            {
                "__all__": f"Not eligible for a waiver: the owner may apply from "
                f"{shown(decision.value.apply_from)} with no subsequent violations, compliance "
                f"throughout and proof of a behavior modification programme "
                f"({law.sections(decision)})."
            }
        )
    decl = change(
        decl,
        acting_user=acting_user,
        action=Action.DECLARATION_WAIVE,
        roles=OFFICERS,
        status=Declaration.Status.WAIVED,
        status_reason=behavior_program_proof,
    )
    close(decl.case, applied_on, "Declaration waived")
    return decl
