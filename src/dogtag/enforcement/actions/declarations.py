"""Dangerous and vicious dogs: the finding, its service, hearing, decision and appeal, the
requirements with their deadlines and proof, removal, waivers and dogs declared elsewhere."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag import rules
from dogtag.accounts.scope import require_role
from dogtag.enforcement import law
from dogtag.enforcement.actions.cases import (
    OFFICERS,
    STAFF,
    as_date,
    change,
    close,
    currently_immunized,
    drop,
    meet,
    open_case,
    set_deadline,
)
from dogtag.enforcement.models import (
    Appeal,
    Case,
    Declaration,
    Hearing,
    Requirement,
    today,
)
from dogtag.registry.actions import save_record


def _requirements(decl, *, only_stayed=False, runs_again_from=None):
    """(Re)compute each requirement's deadline from the engine."""
    contested = decl.contest_timely is True or decl.appeals.filter(timely=True, decided_on=None).exists()
    facts = {
        "classification": decl.classification,
        "declared_on": runs_again_from or decl.determined_on,
        "determined_on": decl.determined_on,
        "written_notice_on": decl.written_notice_on,
        "contested": contested and runs_again_from is None,
    }
    if decl.moved_in_on:
        facts["declared_elsewhere"] = _elsewhere_facts(decl)
    decision = law.ask(decl.municipality, "requirement_deadlines", facts, today())
    for name, v in (decision.value or {}).items():
        req = decl.requirements.filter(name=name).first()
        if only_stayed and (req is None or not req.stayed):
            continue
        if req is None:
            req = Requirement(municipality=decl.municipality, declaration=decl, name=name, imposed=v["mandatory"])
        req.mandatory, req.deadline, req.stayed = v["mandatory"], v["deadline"], v["stayed"]
        req.amount = v["amount"]
        req.citations = _requirement_cites(decision, name, v)
        req.save()
        key = f"requirement.{name}"
        if req.imposed and req.deadline and not req.proof_on:
            set_deadline(
                decl.case,
                key,
                f"Proof of {name.replace('_', ' ')}",
                req.deadline,
                citations=req.citations,
                notes=list(decision.notes),
            )
        else:
            drop(decl.case, key)


def _requirement_cites(decision, name, v):
    """The requirement's own citation: the engine lists one per requirement, in the order of its
    value, before the rules that moved a last day."""
    names = list(decision.value)
    own = decision.citations[names.index(name)] if len(decision.citations) >= len(names) else None
    rest = decision.citations[len(names) :]
    return [
        {"section": c.section, "quote": c.quote, "jurisdiction": c.jurisdiction}
        for c in ([own] if own else []) + list(rest)
    ]


def _elsewhere_facts(decl):
    return {"moved_in_on": decl.moved_in_on, "notified_on": decl.owner_notified_on, "registered_on": decl.registered_on}


def _compliance(decl, *, appeal_failed_on=None, comply_by=None):
    determined_on, start = decl.determined_on, None
    if decl.moved_in_on:
        # A dog declared elsewhere: the pack's reading of [h] says from when its clocks run.
        start = law.ask(decl.municipality, "declared_elsewhere_start", _elsewhere_facts(decl), today())
        determined_on = start.value or determined_on
    decision = law.ask(
        decl.municipality,
        "compliance_deadline",
        {"determined_on": determined_on, "appeal_failed_on": appeal_failed_on},
        today(),
    )
    if decision.value is None:
        return None
    label = "Comply with the regulations (or dispose of the dog)"
    extra = law.cites(start) if start is not None else []
    notes = list(start.notes) if start is not None else []
    set_deadline(
        decl.case,
        "compliance",
        label,
        comply_by or decision.value,
        decision,
        citations=law.cites(decision) + extra,
        notes=notes,
    )
    return decision


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
    value = decision.value or {}
    if not value.get("classification"):
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
        title=f"{animal} declared {value['classification'].replace('_', ' ')}",
        animal=animal,
        opened_on=determined_on,
    )
    decl = Declaration(
        municipality=municipality,
        case=case,
        animal=animal,
        classification=value["classification"],
        ground=value["ground"],
        evidence=evidence,
        incidents=rules.to_json(incidents),
        classification_decision=law.stored(decision),
        determined_on=determined_on,
    )
    decl = save_record(decl, acting_user=acting_user, action="declaration.create", roles=OFFICERS)
    set_deadline(case, "service", "Serve the written determination on the owner", determined_on, decision)
    _compliance(decl)
    _requirements(decl)
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
    facts = {
        "method": service_method,
        "mailed_on": mailed_on,
        "received_on": received_on,
        "served_on": served_on,
        "refused": refused,
        "posted_on": posted_on,
    }
    decision = law.ask(decl.municipality, "notice_effective", facts, today(), field="service_method")
    effective = decision.value
    if decision.value is None and not decision.citations:
        # The ordinance names no rule: the notice takes effect the day the owner has it.
        effective = served_on or received_on or posted_on or mailed_on
    if effective is None:
        raise ValidationError({"posted_on": "; ".join(decision.notes) or "Give the date of service."})
    if effective < decl.determined_on:
        raise ValidationError(
            {"served_on": f"Service on {effective} is before the determination ({decl.determined_on})."}
        )
    decl = change(
        decl,
        acting_user=acting_user,
        action="declaration.serve",
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
    if contest.value is not None:
        set_deadline(
            decl.case,
            "contest",
            "Last day for the owner's written request for a hearing",
            contest.value["deadline"],
            contest,
        )
    return decl


@transaction.atomic
def request_hearing(decl, *, acting_user, requested_on) -> Declaration:
    requested_on = as_date(requested_on)
    if not decl.effective_on:
        raise ValidationError({"requested_on": "The determination has not been served yet."})
    decision = law.ask(
        decl.municipality, "contest_deadline", {"served_on": decl.effective_on, "requested_on": requested_on}, today()
    )
    if decision.value is None:
        raise ValidationError(
            {"requested_on": "This ordinance provides no hearing on a determination; the owner may appeal."}
        )
    if not decision.value["timely"]:
        raise ValidationError(
            {
                "requested_on": f"The request of {requested_on} is late: the last day was "
                f"{decision.value['deadline']} ({law.sections(decision)})."
            }
        )
    decl = change(
        decl,
        acting_user=acting_user,
        action="declaration.contest",
        roles=STAFF,
        contest_requested_on=requested_on,
        contest_timely=True,
    )
    meet(decl.case, "contest", requested_on, "hearing requested")
    window = law.ask(decl.municipality, "hearing_window", {"served_on": decl.effective_on}, today())
    if window.value is not None:
        set_deadline(
            decl.case,
            "hearing",
            f"Hold the hearing (not before {window.value['earliest']:%B %-d})",
            window.value["latest"],
            window,
        )
    _requirements(decl)
    return decl


@transaction.atomic
def schedule_hearing(decl, *, acting_user, scheduled_on, place, interested_parties="") -> Hearing:
    scheduled_on = as_date(scheduled_on)
    if not decl.contest_timely:
        raise ValidationError({"scheduled_on": "The owner has not requested a hearing in time."})
    window = law.ask(decl.municipality, "hearing_window", {"served_on": decl.effective_on}, today())
    if window.value is not None and not (window.value["earliest"] <= scheduled_on <= window.value["latest"]):
        raise ValidationError(
            {
                "scheduled_on": f"The hearing is held between {window.value['earliest']} and "
                f"{window.value['latest']} ({law.sections(window)})."
            }
        )
    hearing = Hearing(
        municipality=decl.municipality,
        declaration=decl,
        scheduled_on=scheduled_on,
        place=place,
        interested_parties=interested_parties,
        window=law.stored(window),
    )
    hearing = save_record(hearing, acting_user=acting_user, action="hearing.schedule", roles=OFFICERS)
    set_deadline(decl.case, "hearing", f"Hearing at {place}", scheduled_on, window)
    return hearing


@transaction.atomic
def decide_hearing(
    hearing, *, acting_user, held_on, outcome, findings, comply_by=None, classification="", decision_sent_on=None
) -> Hearing:
    held_on, comply_by, decision_sent_on = as_date(held_on), as_date(comply_by), as_date(decision_sent_on)
    decl = hearing.declaration
    compliance = law.ask(decl.municipality, "compliance_deadline", {"determined_on": decl.determined_on}, today())
    if outcome != Hearing.Outcome.REVERSED and compliance.value is not None:
        if comply_by is None:
            comply_by = compliance.value
        if comply_by > compliance.value:
            raise ValidationError(
                {"comply_by": f"The schedule may run to {compliance.value} at the latest ({law.sections(compliance)})."}
            )
    if outcome == Hearing.Outcome.MODIFIED and not classification:
        raise ValidationError({"classification": "Say what the determination is modified to."})
    hearing = change(
        hearing,
        acting_user=acting_user,
        action="hearing.decide",
        roles=OFFICERS,
        held_on=held_on,
        outcome=outcome,
        findings=findings,
        comply_by=comply_by,
        classification=classification or decl.classification,
        decision_sent_on=decision_sent_on,
    )
    meet(decl.case, "hearing", held_on, hearing.get_outcome_display())
    status = {
        "affirmed": Declaration.Status.AFFIRMED,
        "modified": Declaration.Status.MODIFIED,
        "reversed": Declaration.Status.REVERSED,
    }[outcome]
    decl.status, decl.classification = status, hearing.classification
    decl.save(update_fields=["status", "classification"])
    if outcome == Hearing.Outcome.REVERSED:
        for d in decl.case.open_deadlines():
            drop(decl.case, d.key)
        close(decl.case, held_on, "Determination reversed at the hearing")
    elif comply_by:
        _compliance(decl, comply_by=comply_by)
    return hearing


@transaction.atomic
def record_decision_received(hearing, *, acting_user, decision_received_on) -> Hearing:
    decision_received_on = as_date(decision_received_on)
    hearing = change(
        hearing,
        acting_user=acting_user,
        action="hearing.received",
        roles=STAFF,
        decision_received_on=decision_received_on,
    )
    appeal = law.ask(hearing.municipality, "appeal_deadline", {"decision_received_on": decision_received_on}, today())
    if appeal.value is not None and hearing.declaration.case.is_open:
        set_deadline(
            hearing.declaration.case,
            "appeal",
            "Last day to appeal to the Board of Appeals",
            appeal.value["deadline"],
            appeal,
        )
    return hearing


@transaction.atomic
def file_appeal(decl, *, acting_user, filed_on, to, stay_granted=False) -> Appeal:
    filed_on = as_date(filed_on)
    hearing = decl.hearings.exclude(decision_received_on=None).order_by("-held_on").first()
    timely = None
    if hearing is not None:
        decision = law.ask(
            decl.municipality,
            "appeal_deadline",
            {"decision_received_on": hearing.decision_received_on, "appealed_on": filed_on},
            today(),
        )
        if decision.value is not None:
            timely = decision.value["timely"]
            if not timely:
                raise ValidationError(
                    {
                        "filed_on": f"The appeal of {filed_on} is late: the last day was "
                        f"{decision.value['deadline']} ({law.sections(decision)})."
                    }
                )
    appeal = Appeal(
        municipality=decl.municipality,
        declaration=decl,
        filed_on=filed_on,
        to=to,
        timely=timely,
        stay_granted=stay_granted,
    )
    appeal = save_record(appeal, acting_user=acting_user, action="appeal.file", roles=STAFF)
    meet(decl.case, "appeal", filed_on, f"appealed to {to}")
    _requirements(decl)
    return appeal


@transaction.atomic
def decide_appeal(appeal, *, acting_user, decided_on, outcome) -> Appeal:
    decided_on = as_date(decided_on)
    appeal = change(
        appeal, acting_user=acting_user, action="appeal.decide", roles=STAFF, decided_on=decided_on, outcome=outcome
    )
    decl = appeal.declaration
    if outcome == Appeal.Outcome.OVERTURNED:
        decl.status = Declaration.Status.OVERTURNED
        decl.save(update_fields=["status"])
        for d in decl.case.open_deadlines():
            drop(decl.case, d.key)
        close(decl.case, decided_on, "Determination overturned on appeal")
        return appeal
    # "stayed until such time as any further right to appeal has been exhausted": stayed
    # requirements run again from the day the appeal fails.
    _requirements(decl, only_stayed=True, runs_again_from=decided_on)
    # Benton § 115-5B(5): "or 10 days after an unsuccessful appeal"; where the ordinance says
    # nothing (River Hills), the schedule already set stands.
    facts = {"determined_on": decl.determined_on}
    after = law.ask(decl.municipality, "compliance_deadline", {**facts, "appeal_failed_on": decided_on}, today())
    before = law.ask(decl.municipality, "compliance_deadline", facts, today())
    if after.value is not None and after.value != before.value:
        _compliance(decl, appeal_failed_on=decided_on)
    return appeal


@transaction.atomic
def impose_requirement(req, *, acting_user, written_notice_on=None) -> Requirement:
    """A requirement the ordinance leaves to the officer's (or Board's) discretion."""
    decl = req.declaration
    if req.mandatory:
        raise ValidationError({"written_notice_on": "This requirement applies without being imposed."})
    if written_notice_on:
        decl.written_notice_on = as_date(written_notice_on)
        decl.save(update_fields=["written_notice_on"])
    req = change(req, acting_user=acting_user, action="requirement.impose", roles=OFFICERS, imposed=True)
    _requirements(decl)
    return req


@transaction.atomic
def record_requirement_proof(req, *, acting_user, proof, proof_on) -> Requirement:
    proof_on = as_date(proof_on)
    if not proof.strip():
        raise ValidationError({"proof": "Describe the proof given (certificate, policy number, photographs ...)."})
    req = change(req, acting_user=acting_user, action="requirement.proof", roles=STAFF, proof=proof, proof_on=proof_on)
    late = req.deadline and proof_on > req.deadline
    meet(req.declaration.case, f"requirement.{req.name}", proof_on, "late" if late else proof)
    return req


@transaction.atomic
def serve_removal_notice(decl, *, acting_user, served_at) -> Declaration:
    decision = law.ask(
        decl.municipality,
        "removal_deadline",
        {"served_at": timezone.localtime(served_at).replace(tzinfo=None)},
        today(),
    )
    if decision.value is None:
        raise ValidationError({"served_at": "This ordinance sets no removal deadline."})
    decl = change(
        decl,
        acting_user=acting_user,
        action="declaration.removal_notice",
        roles=OFFICERS,
        status_reason=f"Removal notice served {timezone.localtime(served_at):%Y-%m-%d %H:%M}",
    )
    set_deadline(
        decl.case, "removal", "Remove the dog from the municipality", timezone.make_aware(decision.value), decision
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
    decision = law.ask(municipality, "declared_elsewhere_deadline", {"moved_in_on": moved_in_on}, today())
    if decision.value is None:
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
    decl = save_record(decl, acting_user=acting_user, action="declaration.declared_elsewhere", roles=OFFICERS)
    set_deadline(case, "declared_elsewhere", "The owner notifies the police and the clerk", decision.value, decision)
    if notified_on:
        meet(case, "declared_elsewhere", notified_on, "late" if notified_on > decision.value else "notified")
    _compliance(decl)
    _requirements(decl)
    return decl


@transaction.atomic
def record_elsewhere_notice(decl, *, acting_user, notified_on) -> Declaration:
    """The owner's notice to the police and the clerk of a dog declared elsewhere ([h]) that came
    after the village registered the dog; the requirements already run from registration."""
    notified_on = as_date(notified_on)
    if not decl.moved_in_on:
        raise ValidationError({"notified_on": "This dog was declared here, not elsewhere."})
    if decl.owner_notified_on:
        raise ValidationError({"notified_on": f"The owner's notice is on record: {decl.owner_notified_on}."})
    if notified_on < decl.moved_in_on:
        raise ValidationError({"notified_on": f"That is before the dog moved in ({decl.moved_in_on})."})
    decl = change(
        decl, acting_user=acting_user, action="declaration.elsewhere_notice", roles=STAFF, owner_notified_on=notified_on
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
    if decision.value is None:
        raise ValidationError({"__all__": "; ".join(decision.notes)})
    if not decision.value["eligible"]:
        raise ValidationError(
            {
                "__all__": f"Not eligible for a waiver: the owner may apply from "
                f"{decision.value['apply_from']} with no subsequent violations, compliance "
                f"throughout and proof of a behavior modification programme "
                f"({law.sections(decision)})."
            }
        )
    decl = change(
        decl,
        acting_user=acting_user,
        action="declaration.waive",
        roles=OFFICERS,
        status=Declaration.Status.WAIVED,
        status_reason=behavior_program_proof,
    )
    close(decl.case, applied_on, "Declaration waived")
    return decl
