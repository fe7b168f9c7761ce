"""What the case's printable documents show (rendered to PDF by lib/pdf.py): the record, its
case, the deadlines and the citations the case page shows."""

from dogtag.enforcement.models import Case, Citation, Complaint, Declaration, Impoundment, QuarantineOrder, today


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
        context["order"] = obj
        context["examinations"] = obj.examinations.select_related("veterinarian")
    elif isinstance(obj, Declaration):
        context["decl"] = obj
        context["requirements"] = obj.requirements.all()
        context["hearing"] = obj.hearings.order_by("-pk").first()
    elif isinstance(obj, Complaint):
        context["complaint"] = obj
        context["complaints"] = case.complaints.all()
    elif isinstance(obj, Citation):
        context["citation"] = obj
    return context


def warning_letter_applies(complaint) -> bool:
    """A warning letter answers a case's first barking complaint, before any violation is found."""
    if complaint.kind != Complaint.Kind.BARKING:
        return False
    first = complaint.case.complaints.filter(kind=Complaint.Kind.BARKING).order_by("filed_on", "pk").first()
    value = (complaint.finding or {}).get("value") or {}
    return first == complaint and not value.get("violation")
