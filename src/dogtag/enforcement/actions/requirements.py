"""The requirements that follow a declaration, each with its deadline from the engine, stayed
while a timely contest is pending, imposed where the ordinance leaves them to discretion, and
proved; and the compliance schedule."""

from django.core.exceptions import ValidationError
from django.db import transaction

from dogtag.audit.action_names import Action
from dogtag.enforcement import law
from dogtag.enforcement.actions.cases import (
    OFFICERS,
    STAFF,
    already,
    as_date,
    change,
    drop,
    meet,
    set_deadline,
)
from dogtag.enforcement.models import (
    Requirement,
)
from dogtag.lib.dates import today
from dogtag.rules.decision import citations_json


def update_requirements(decl, *, only_stayed=False, runs_again_from=None):
    """(Re)compute each requirement's deadline from the engine. After an unsuccessful appeal
    (`runs_again_from`), the stayed requirements run again, and those due on the compliance day
    move with it (Benton § 115-5B(5))."""
    contested = decl.contest_timely is True or decl.appeals.filter(timely=True, decided_on=None).exists()
    facts = {
        "classification": decl.classification,
        "declared_on": runs_again_from or decl.determined_on,
        "determined_on": decl.determined_on,
        "written_notice_on": decl.written_notice_on,
        "contested": contested and runs_again_from is None,
        "appeal_failed_on": runs_again_from,
    }
    if decl.moved_in_on:
        facts["declared_elsewhere"] = elsewhere_facts(decl)
    decision = law.ask(decl.municipality, "requirement_deadlines", facts, today())
    for name, v in decision.value.requirements.items():
        req = decl.requirements.filter(name=name).first()
        if only_stayed and (req is None or not (req.stayed or v.runs_from == "compliance")):
            continue
        if req is None:
            req = Requirement(municipality=decl.municipality, declaration=decl, name=name, imposed=v.mandatory)
        req.mandatory, req.deadline, req.stayed = v.mandatory, v.deadline, v.stayed
        req.amount = v.amount
        req.citations = _requirement_cites(decision, name)
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


def _requirement_cites(decision, name):
    """The requirement's own citation: the engine lists one per requirement, in the order of its
    value, before the rules that moved a last day."""
    names = list(decision.value.requirements)
    own = decision.citations[names.index(name)] if len(decision.citations) >= len(names) else None
    rest = decision.citations[len(names) :]
    return citations_json(([own] if own else []) + list(rest))


def elsewhere_facts(decl):
    return {"moved_in_on": decl.moved_in_on, "notified_on": decl.owner_notified_on, "registered_on": decl.registered_on}


def set_compliance(decl, *, appeal_failed_on=None, comply_by=None):
    determined_on, start = decl.determined_on, None
    if decl.moved_in_on:
        # A dog declared elsewhere: the pack's reading of [h] says from when its clocks run.
        start = law.ask(decl.municipality, "declared_elsewhere_start", elsewhere_facts(decl), today())
        determined_on = start.value.starts_on if start.value.applies else determined_on
    decision = law.ask(
        decl.municipality,
        "compliance_deadline",
        {"determined_on": determined_on, "appeal_failed_on": appeal_failed_on},
        today(),
    )
    if not decision.value.applies:
        return None
    label = "Comply with the regulations (or dispose of the dog)"
    extra = law.cites(start) if start is not None else []
    notes = list(start.notes) if start is not None else []
    set_deadline(
        decl.case,
        "compliance",
        label,
        comply_by or decision.value.last_day,
        decision,
        citations=law.cites(decision) + extra,
        notes=notes,
    )
    return decision


@transaction.atomic
def impose_requirement(req, *, acting_user, written_notice_on=None) -> Requirement:
    """A requirement the ordinance leaves to the officer's (or Board's) discretion."""
    decl = req.declaration
    if req.mandatory:
        raise ValidationError({"written_notice_on": "This requirement applies without being imposed."})
    notice = as_date(written_notice_on) or decl.written_notice_on
    if already(req, acting_user=acting_user, roles=OFFICERS, imposed=True) and decl.written_notice_on == notice:
        return req
    if written_notice_on:
        decl.written_notice_on = as_date(written_notice_on)
        decl.save(update_fields=["written_notice_on"])
    req = change(req, acting_user=acting_user, action=Action.REQUIREMENT_IMPOSE, roles=OFFICERS, imposed=True)
    update_requirements(decl)
    return req


@transaction.atomic
def record_requirement_proof(req, *, acting_user, proof, proof_on) -> Requirement:
    proof_on = as_date(proof_on)
    if already(req, acting_user=acting_user, roles=STAFF, proof=proof, proof_on=proof_on):
        return req
    if not proof.strip():
        raise ValidationError({"proof": "Describe the proof given (certificate, policy number, photographs ...)."})
    req = change(
        req, acting_user=acting_user, action=Action.REQUIREMENT_PROOF, roles=STAFF, proof=proof, proof_on=proof_on
    )
    late = req.deadline and proof_on > req.deadline
    meet(req.declaration.case, f"requirement.{req.name}", proof_on, "late" if late else proof)
    return req
