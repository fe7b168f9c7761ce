"""A contested determination: the owner's request for a hearing, the hearing inside its window,
the decision and its receipt, the appeal and its outcome (River Hills § 2.14(6)[c](3); Benton's
appeal under its Chapter 12)."""

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
    close,
    drop,
    meet,
    not_in_future,
    set_deadline,
)
from dogtag.enforcement.actions.requirements import set_compliance, update_requirements
from dogtag.enforcement.models import (
    Appeal,
    Declaration,
    Hearing,
)
from dogtag.lib.dates import shown, today
from dogtag.registry.actions import save_record


@transaction.atomic
def request_hearing(decl, *, acting_user, requested_on) -> Declaration:
    requested_on = as_date(requested_on)
    not_in_future(requested_on=requested_on)
    if already(decl, acting_user=acting_user, roles=STAFF, contest_requested_on=requested_on):
        return decl
    if not decl.effective_on:
        raise ValidationError({"requested_on": "The determination has not been served yet."})
    decision = law.ask(
        decl.municipality, "contest_deadline", {"served_on": decl.effective_on, "requested_on": requested_on}, today()
    )
    if not decision.value.applies:
        raise ValidationError(
            {"requested_on": "This ordinance provides no hearing on a determination; the owner may appeal."}
        )
    if not decision.value.timely:
        raise ValidationError(
            {
                "requested_on": f"The request of {shown(requested_on)} is late: the last day was "
                f"{shown(decision.value.deadline)} ({law.sections(decision)})."
            }
        )
    decl = change(
        decl,
        acting_user=acting_user,
        action=Action.DECLARATION_CONTEST,
        roles=STAFF,
        contest_requested_on=requested_on,
        contest_timely=True,
    )
    meet(decl.case, "contest", requested_on, "hearing requested")
    window = law.ask(decl.municipality, "hearing_window", {"served_on": decl.effective_on}, today())
    if window.value.applies:
        set_deadline(
            decl.case,
            "hearing",
            f"Hold the hearing (not before {window.value.earliest:%B %-d})",
            window.value.latest,
            window,
        )
    update_requirements(decl)
    return decl


@transaction.atomic
def schedule_hearing(decl, *, acting_user, scheduled_on, time, place, interested_parties="") -> Hearing:
    """A hearing has a day inside the law's window, a time and a place, all on its notice."""
    scheduled_on = as_date(scheduled_on)
    if time is None:
        raise ValidationError({"time": "Enter the time of the hearing, like 10:00 AM."})
    if not (place or "").strip():
        raise ValidationError({"place": "Enter where the hearing is held, like the Village Hall, 1 Main St."})
    if not decl.contest_timely:
        raise ValidationError({"scheduled_on": "The owner has not requested a hearing in time."})
    window = law.ask(decl.municipality, "hearing_window", {"served_on": decl.effective_on}, today())
    if window.value.applies and not (window.value.earliest <= scheduled_on <= window.value.latest):
        raise ValidationError(
            {
                "scheduled_on": f"The hearing is held between {shown(window.value.earliest)} and "
                f"{shown(window.value.latest)} ({law.sections(window)})."
            }
        )
    # The same form sent twice (a double click, a resent page) must not make two hearings:
    # the declaration's row is locked, and an undecided hearing refuses a second.
    Declaration.objects.select_for_update().filter(pk=decl.pk).first()
    pending = decl.hearings.filter(held_on=None).first()
    if pending is not None:
        raise ValidationError(
            {
                "scheduled_on": f"A hearing is already scheduled for {pending.when} at "
                f"{pending.place}; decide it before scheduling another."
            }
        )
    hearing = Hearing(
        municipality=decl.municipality,
        declaration=decl,
        scheduled_on=scheduled_on,
        time=time,
        place=place,
        interested_parties=interested_parties,
        window=law.stored(window),
    )
    hearing = save_record(hearing, acting_user=acting_user, action=Action.HEARING_SCHEDULE, roles=OFFICERS)
    set_deadline(decl.case, "hearing", f"Hearing at {place}", scheduled_on, window)
    return hearing


def retitle(case, before: str, after: str) -> None:
    """The case is named for what the dog is declared: a modified determination renames it."""
    case.title = case.title.replace(f"declared {before.replace('_', ' ')}", f"declared {after.replace('_', ' ')}")
    case.save(update_fields=["title"])


def check_held_on(hearing, held_on, decision_sent_on) -> None:
    """A hearing is held on or after the day it was scheduled and inside the law's window; its
    decision is sent on or after the day it was held."""
    decl = hearing.declaration
    if held_on < hearing.scheduled_on:
        raise ValidationError(
            {
                "held_on": f"Held on {shown(held_on)} is before the day the hearing was scheduled, "
                f"{shown(hearing.scheduled_on)}."
            }
        )
    window = law.ask(decl.municipality, "hearing_window", {"served_on": decl.effective_on}, today())
    if window.value.applies and not (window.value.earliest <= held_on <= window.value.latest):
        raise ValidationError(
            {
                "held_on": f"Held on {shown(held_on)} is outside the hearing's window, {shown(window.value.earliest)} "
                f"to {shown(window.value.latest)} after service on {shown(decl.effective_on)} "
                f"({law.sections(window)})."
            }
        )
    if decision_sent_on is not None and decision_sent_on < held_on:
        raise ValidationError(
            {
                "decision_sent_on": f"Decision sent on {shown(decision_sent_on)} is before the hearing was held "
                f"on {shown(held_on)}."
            }
        )


@transaction.atomic
def decide_hearing(
    hearing, *, acting_user, held_on, outcome, findings, comply_by=None, classification="", decision_sent_on=None
) -> Hearing:
    held_on, comply_by, decision_sent_on = as_date(held_on), as_date(comply_by), as_date(decision_sent_on)
    not_in_future(held_on=held_on, decision_sent_on=decision_sent_on)
    given = {"comply_by": comply_by, "classification": classification}
    decided = {"held_on": held_on, "outcome": outcome, "findings": findings, "decision_sent_on": decision_sent_on}
    if already(hearing, acting_user=acting_user, roles=OFFICERS, **decided, **{k: v for k, v in given.items() if v}):
        return hearing
    decl = hearing.declaration
    check_held_on(hearing, held_on, decision_sent_on)
    compliance = law.ask(decl.municipality, "compliance_deadline", {"determined_on": decl.determined_on}, today())
    if outcome != Hearing.Outcome.REVERSED and compliance.value.applies:
        latest = compliance.value.last_day
        if comply_by is None:
            comply_by = latest
        if comply_by > latest:
            raise ValidationError(
                {"comply_by": f"The schedule may run to {shown(latest)} at the latest ({law.sections(compliance)})."}
            )
    if outcome == Hearing.Outcome.MODIFIED and not classification:
        raise ValidationError({"classification": "Say what the determination is modified to."})
    hearing = change(
        hearing,
        acting_user=acting_user,
        action=Action.HEARING_DECIDE,
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
    before = decl.classification
    decl.status, decl.classification = status, hearing.classification
    decl.save(update_fields=["status", "classification"])
    if decl.classification != before:
        retitle(decl.case, before, decl.classification)
    if outcome == Hearing.Outcome.REVERSED:
        for d in decl.case.open_deadlines():
            drop(decl.case, d.key)
        close(decl.case, held_on, "Determination reversed at the hearing")
    elif comply_by:
        set_compliance(decl, comply_by=comply_by)
    return hearing


@transaction.atomic
def record_decision_received(hearing, *, acting_user, decision_received_on) -> Hearing:
    decision_received_on = as_date(decision_received_on)
    not_in_future(decision_received_on=decision_received_on)
    if already(hearing, acting_user=acting_user, roles=STAFF, decision_received_on=decision_received_on):
        return hearing
    hearing = change(
        hearing,
        acting_user=acting_user,
        action=Action.HEARING_RECEIVED,
        roles=STAFF,
        decision_received_on=decision_received_on,
    )
    appeal = law.ask(hearing.municipality, "appeal_deadline", {"decision_received_on": decision_received_on}, today())
    if appeal.value.applies and hearing.declaration.case.is_open:
        set_deadline(
            hearing.declaration.case,
            "appeal",
            "Last day to appeal to the Board of Appeals",
            appeal.value.deadline,
            appeal,
        )
    return hearing


@transaction.atomic
def file_appeal(decl, *, acting_user, filed_on, to, stay_granted=False) -> Appeal:
    filed_on = as_date(filed_on)
    not_in_future(filed_on=filed_on)
    pending = decl.appeals.filter(decided_on=None).first()
    if pending is not None:
        if already(pending, acting_user=acting_user, roles=STAFF, filed_on=filed_on, to=to, stay_granted=stay_granted):
            return pending
        raise ValidationError(
            {
                "filed_on": f"The appeal filed on {pending.filed_on:%B %-d, %Y} to {pending.to} is pending; "
                "record its decision first."
            }
        )
    hearing = decl.hearings.exclude(decision_received_on=None).order_by("-held_on").first()
    timely = None
    if hearing is not None:
        decision = law.ask(
            decl.municipality,
            "appeal_deadline",
            {"decision_received_on": hearing.decision_received_on, "appealed_on": filed_on},
            today(),
        )
        if decision.value.applies:
            timely = decision.value.timely
            if not timely:
                raise ValidationError(
                    {
                        "filed_on": f"The appeal of {shown(filed_on)} is late: the last day was "
                        f"{shown(decision.value.deadline)} ({law.sections(decision)})."
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
    appeal = save_record(appeal, acting_user=acting_user, action=Action.APPEAL_FILE, roles=STAFF)
    meet(decl.case, "appeal", filed_on, f"appealed to {to}")
    update_requirements(decl)
    return appeal


@transaction.atomic
def decide_appeal(appeal, *, acting_user, decided_on, outcome) -> Appeal:
    decided_on = as_date(decided_on)
    not_in_future(decided_on=decided_on)
    if already(appeal, acting_user=acting_user, roles=STAFF, decided_on=decided_on, outcome=outcome):
        return appeal
    appeal = change(
        appeal,
        acting_user=acting_user,
        action=Action.APPEAL_DECIDE,
        roles=STAFF,
        decided_on=decided_on,
        outcome=outcome,
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
    update_requirements(decl, only_stayed=True, runs_again_from=decided_on)
    # Benton § 115-5B(5): "or 10 days after an unsuccessful appeal"; where the ordinance says
    # nothing (River Hills), the schedule already set stands.
    facts = {"determined_on": decl.determined_on}
    after = law.ask(decl.municipality, "compliance_deadline", {**facts, "appeal_failed_on": decided_on}, today())
    before = law.ask(decl.municipality, "compliance_deadline", facts, today())
    if after.value.applies and after.value.last_day != before.value.last_day:
        set_compliance(decl, appeal_failed_on=decided_on)
    return appeal
