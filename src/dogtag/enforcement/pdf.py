"""What the case's printable documents show (rendered to PDF by lib/pdf.py): the record, its
case, the deadlines and the citations the case page shows."""

from dogtag.enforcement import law
from dogtag.enforcement.models import (
    Case,
    Citation,
    Complaint,
    Deadline,
    Declaration,
    Impoundment,
    QuarantineOrder,
)
from dogtag.enforcement.paying import how_to_pay
from dogtag.lib.dates import shown, today


class NotServable(Exception):
    """A document that would be served without the date it exists to give: refused, with why."""


def _as_if_served(label: str, due, decision) -> Deadline:
    """A date the engine computes from the day the document is printed for service (not saved)."""
    return Deadline(key="printed", label=label, due_on=due, citations=law.cites(decision))


def context_for(obj) -> dict | None:
    """What every document shows: the record, its case, the case's deadlines with their law."""
    case: Case = obj.case
    context = {
        "obj": obj,
        "case": case,
        "municipality": case.municipality,
        "deadlines": {d.key: d for d in case.deadlines.filter(superseded=False)},
        "today": today(),
    }
    if isinstance(obj, Impoundment):
        from dogtag.enforcement.actions import CONDITION_WORDS, release_decision

        context["imp"] = obj
        decision = release_decision(obj, on=today())
        context["release_conditions"] = [CONDITION_WORDS[c] for c in decision.value.conditions]
    elif isinstance(obj, QuarantineOrder):
        from dogtag.enforcement.actions.quarantines import EXAM_KEYS

        context["order"] = obj
        context["examinations"] = obj.examinations.select_related("veterinarian")
        context["first_examination"] = context["deadlines"].get(EXAM_KEYS["first"])
    elif isinstance(obj, Declaration):
        context["decl"] = obj
        context["requirements"] = obj.requirements.all()
        context["hearing"] = obj.hearings.order_by("-pk").first()
        _declaration_dates(obj, context)
    elif isinstance(obj, Complaint):
        context["complaint"] = obj
        context["complaints"] = case.complaints.all()
    elif isinstance(obj, Citation):
        context["citation"] = obj
        context["pay"] = how_to_pay(obj, case.municipality)
    return context


def warning_letter_applies(complaint) -> bool:
    """A warning letter answers a case's first barking complaint, before any violation is found."""
    if complaint.kind != Complaint.Kind.BARKING:
        return False
    first = complaint.case.complaints.filter(kind=Complaint.Kind.BARKING).order_by("filed_on", "pk").first()
    value = (complaint.finding or {}).get("value") or {}
    return first == complaint and not value.get("violation")


def impoundment_notice_date(imp, context) -> None:
    """The notice of impoundment exists to give the last day to claim (counted from the notice):
    printed before the notice is recorded, it is refused with the reason."""
    if "claim_by" in context["deadlines"]:
        return
    decision = law.ask(
        imp.municipality,
        "impoundment_holding",
        {
            "impounded_on": imp.impounded_on,
            "owner_known": imp.owner_known,
            "notice_on": imp.notice_on,
            "notice_received_on": imp.notice_received_on,
            "bit_person": imp.bit_person,
        },
        imp.impounded_on,
    )
    why = "; ".join(decision.notes)
    raise NotServable(
        "The notice would be served without the last day to claim, which the law counts from the notice "
        f"({law.sections(decision)}). Record how and when the owner is notified first (the “Notice” step)"
        f"{': ' + why if why else ''}."
    )


def _declaration_dates(decl, context) -> None:
    """The determination printed before service and the decision printed before it is received give
    the day the law counts from the day it is printed for service, and say so."""
    on = today()
    deadlines = context["deadlines"]
    if "contest" not in deadlines and not decl.effective_on:
        contest = law.ask(decl.municipality, "contest_deadline", {"served_on": on}, on)
        if contest.value.applies:
            deadlines["contest"] = _as_if_served(f"If served on {shown(on)}", contest.value.deadline, contest)
    hearing = context["hearing"]
    if "appeal" not in deadlines and hearing is not None and hearing.held_on and not hearing.decision_received_on:
        appeal = law.ask(decl.municipality, "appeal_deadline", {"decision_received_on": on}, on)
        if appeal.value.applies:
            deadlines["appeal"] = _as_if_served(f"If received on {shown(on)}", appeal.value.deadline, appeal)
