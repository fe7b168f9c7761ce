"""Animal control under /api/v1/: the same actions as the staff pages, scoped by municipality."""

import json
from datetime import date, datetime
from decimal import Decimal
from typing import Literal

from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Router, Schema, Status

from dogtag.accounts.scope import get_for_user, municipality_for, scoped
from dogtag.enforcement import actions
from dogtag.enforcement.models import (
    BiteReport,
    Case,
    Citation,
    Complaint,
    Declaration,
    Examination,
    Impoundment,
    QuarantineOrder,
)
from dogtag.enforcement.steps import NEW, STEPS
from dogtag.lib.api_pages import paged
from dogtag.lib.api_types import Citations, stored_decision
from dogtag.lib.forms import ScopedForm
from dogtag.registry.models import Animal, Person
from dogtag.rules.decision import ZERO

router = Router(tags=["animal control"])


def _row(model, municipality_id, pk):
    """A referenced row, looked up only inside the record's municipality."""
    if pk is None:
        return None
    return get_object_or_404(model, pk=pk, municipality_id=municipality_id)


class DeadlineOut(Schema):
    key: str
    label: str
    due_on: date
    due_at: datetime | None
    citations: Citations
    notes: list[str]
    done_on: date | None
    overdue: bool


class CaseOut(Schema):
    id: int
    municipality: str
    kind: str
    title: str
    animal_id: int | None
    owner_id: int | None
    opened_on: date
    closed_on: date | None
    close_reason: str
    deadlines: list[DeadlineOut]

    @staticmethod
    def resolve_municipality(obj):
        return obj.municipality.slug

    @staticmethod
    def resolve_deadlines(obj):
        return obj.deadlines.filter(superseded=False)


@router.get("/cases", response=list[CaseOut])
@paged("-opened_on", "-pk")
def list_cases(request, municipality: str | None = None, open: bool = True):
    cases = scoped(request.auth, Case.objects.select_related("municipality"))
    if open:
        cases = cases.filter(closed_on=None)
    return cases.filter(municipality__slug=municipality) if municipality else cases


@router.get("/cases/{pk}", response=CaseOut)
def get_case(request, pk: int):
    return get_for_user(request.auth, Case.objects, pk)


class ImpoundIn(Schema):
    animal_id: int | None = None
    owner_id: int | None = None
    description: str = ""
    impounded_on: date | None = None
    found_at: str
    reason: str
    held_at: str
    officer_saw_or_heard: bool = False
    sworn_complaint: bool = False
    bit_person: bool = False


@router.post("/municipalities/{slug}/impoundments", response={201: CaseOut})
def impound(request, slug: str, payload: ImpoundIn):
    m = municipality_for(request.auth, slug)
    data = payload.dict()
    animal = _row(Animal, m.pk, data.pop("animal_id"))
    owner = _row(Person, m.pk, data.pop("owner_id"))
    imp = actions.impound(acting_user=request.auth, municipality=m, animal=animal, owner=owner, **data)
    return Status(201, imp.case)


class NoticeIn(Schema):
    notice_method: str
    notice_on: date
    notice_received_on: date | None = None
    posted_at: str = ""


@router.post("/impoundments/{pk}/notice", response=CaseOut)
def impound_notice(request, pk: int, payload: NoticeIn):
    imp = get_for_user(request.auth, Impoundment.objects, pk)
    return actions.give_impound_notice(imp, acting_user=request.auth, **payload.dict()).case


class ReleaseIn(Schema):
    released_on: date | None = None
    proof_of_ownership: bool = True
    license_prepaid: bool = False
    vaccination_prepaid: bool = False
    tagged: bool = False
    charges_paid: bool = False
    fee_paid: Decimal | None = None
    license_note: str = ""


@router.post("/impoundments/{pk}/release", response=CaseOut)
def impound_release(request, pk: int, payload: ReleaseIn):
    imp = get_for_user(request.auth, Impoundment.objects, pk)
    return actions.release_impoundment(imp, acting_user=request.auth, **payload.dict()).case


class DisposeIn(Schema):
    disposition: str
    disposed_on: date | None = None
    disposed_to: str = ""


@router.post("/impoundments/{pk}/dispose", response=CaseOut)
def impound_dispose(request, pk: int, payload: DisposeIn):
    imp = get_for_user(request.auth, Impoundment.objects, pk)
    return actions.dispose_unclaimed(imp, acting_user=request.auth, **payload.dict()).case


class BiteIn(Schema):
    animal_id: int
    victim_name: str
    victim_address: str = ""
    victim_phone: str = ""
    bitten_on: date
    place: str
    description: str = ""
    reported_by: str = ""


@router.post("/municipalities/{slug}/bites", response={201: CaseOut})
def report_bite(request, slug: str, payload: BiteIn):
    m = municipality_for(request.auth, slug)
    data = payload.dict()
    animal = _row(Animal, m.pk, data.pop("animal_id"))
    return Status(201, actions.report_bite(acting_user=request.auth, municipality=m, animal=animal, **data).case)


class QuarantineIn(Schema):
    place: str
    facility: str
    isolation_starts_on: date | None = None


@router.post("/bites/{pk}/quarantine", response={201: CaseOut})
def order_quarantine(request, pk: int, payload: QuarantineIn):
    bite = get_for_user(request.auth, BiteReport.objects, pk)
    return Status(201, actions.order_bite_quarantine(bite, acting_user=request.auth, **payload.dict()).case)


class ExaminationIn(Schema):
    which: Examination.Which
    examined_on: date
    findings: str
    signs_of_rabies: bool = False


@router.post("/quarantines/{pk}/examinations", response={201: CaseOut})
def record_examination(request, pk: int, payload: ExaminationIn):
    order = get_for_user(request.auth, QuarantineOrder.objects, pk)
    actions.record_examination(order, acting_user=request.auth, **payload.dict())
    return Status(201, order.case)


class QuarantineReleaseIn(Schema):
    released_on: date
    release_certificate: str = ""
    revaccinated_on: date | None = None


@router.post("/quarantines/{pk}/release", response=CaseOut)
def release_quarantine(request, pk: int, payload: QuarantineReleaseIn):
    order = get_for_user(request.auth, QuarantineOrder.objects, pk)
    return actions.release_quarantine(order, acting_user=request.auth, **payload.dict()).case


# Inline in the document: another schema's enum named `Kind` would share its component name.
ComplaintKind = Literal[tuple(Complaint.Kind.values)]


class ComplaintIn(Schema):
    kind: ComplaintKind
    formal_written: bool = False
    sworn: bool = False
    complainant_name: str
    complainant_address: str = ""
    animal_id: int | None = None
    owner_id: int | None = None
    animal_description: str = ""
    observed_on: date
    observed_time: str = ""
    place: str
    description: str = ""
    filed_on: date | None = None


class ComplaintOut(Schema):
    id: int
    case_id: int
    kind: str
    filed_on: date
    finding: stored_decision("barking_nuisance", "at_large_complaint") | None


@router.post("/municipalities/{slug}/complaints", response={201: ComplaintOut})
def record_complaint(request, slug: str, payload: ComplaintIn):
    m = municipality_for(request.auth, slug)
    data = payload.dict()
    animal = _row(Animal, m.pk, data.pop("animal_id"))
    owner = _row(Person, m.pk, data.pop("owner_id"))
    return Status(
        201, actions.record_complaint(acting_user=request.auth, municipality=m, animal=animal, owner=owner, **data)
    )


class IncidentIn(Schema):
    occurred_on: date
    kind: str
    victim: str
    at_large: bool = False
    off_owner_property: bool = False
    provoked: bool = False
    excuse: str | None = None


class DeclareIn(Schema):
    animal_id: int
    evidence: str
    incidents: list[IncidentIn]
    determined_on: date | None = None
    fighting: bool = False
    propensity_shown: bool = False


@router.post("/municipalities/{slug}/declarations", response={201: CaseOut})
def declare_dog(request, slug: str, payload: DeclareIn):
    m = municipality_for(request.auth, slug)
    data = payload.dict()
    animal = _row(Animal, m.pk, data.pop("animal_id"))
    return Status(201, actions.declare_dog(acting_user=request.auth, municipality=m, animal=animal, **data).case)


class ServeIn(Schema):
    service_method: str
    mailed_on: date | None = None
    served_on: date | None = None
    received_on: date | None = None
    refused: bool = False
    posted_on: date | None = None


@router.post("/declarations/{pk}/service", response=CaseOut)
def serve_declaration(request, pk: int, payload: ServeIn):
    decl = get_for_user(request.auth, Declaration.objects, pk)
    return actions.serve_declaration(decl, acting_user=request.auth, **payload.dict()).case


class HearingRequestIn(Schema):
    requested_on: date


@router.post("/declarations/{pk}/hearing-request", response=CaseOut)
def request_hearing(request, pk: int, payload: HearingRequestIn):
    decl = get_for_user(request.auth, Declaration.objects, pk)
    return actions.request_hearing(decl, acting_user=request.auth, **payload.dict()).case


class CitationIn(Schema):
    person_id: int
    animal_id: int | None = None
    violation: str
    description: str
    violated_on: date
    days: int = 1
    forfeiture: Decimal | None = None
    costs: Decimal = ZERO
    court_date: date | None = None


class CitationOut(Schema):
    id: int
    case_id: int
    violation: str
    offense_number: int
    minimum: Decimal | None
    maximum: Decimal | None
    forfeiture: Decimal
    plus_costs: bool
    court_date: date | None
    paid_on: date | None
    voided_at: datetime | None
    decision: stored_decision("forfeiture")


@router.post("/municipalities/{slug}/citations", response={201: CitationOut})
def issue_citation(request, slug: str, payload: CitationIn):
    m = municipality_for(request.auth, slug)
    data = payload.dict()
    person = _row(Person, m.pk, data.pop("person_id"))
    animal = _row(Animal, m.pk, data.pop("animal_id"))
    return Status(
        201, actions.issue_citation(acting_user=request.auth, municipality=m, person=person, animal=animal, **data)
    )


@router.get("/citations/{pk}", response=CitationOut)
def get_citation(request, pk: int):
    return get_for_user(request.auth, Citation.objects, pk)


# --- every other step, through the staff pages' forms ------------------------------------------
# The same form parses the body and the same action validates it, so each step of a case is
# available here without a second schema to keep in step; errors come back per field (422).

TARGETS = {
    "cases": lambda case, data: case,
    "impoundments": lambda case, data: case.impoundment,
    "bites": lambda case, data: case.bite,
    "quarantines": lambda case, data: case.quarantine,
    "declarations": lambda case, data: case.declaration,
    "citations": lambda case, data: case.citation,
    "complaints": lambda case, data: get_object_or_404(case.complaints, pk=_id(data, "complaint_id", "complaint")),
    "requirements": lambda case, data: get_object_or_404(
        case.declaration.requirements, pk=_id(data, "requirement_id", "requirement")
    ),
}


def _id(data: dict, field: str, what: str) -> int:
    """The id a step names in its body, refused with the field named unless it is a whole number."""
    value = data.get(field)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValidationError({field: f"The {what}'s id, a whole number (as shown on the case), is required."})
    return value


def _body(request) -> dict:
    try:
        data = json.loads(request.body or b"{}")
    except ValueError as e:
        raise ValidationError({"__all__": f"The body is not JSON: {e}"}) from e
    if not isinstance(data, dict):
        raise ValidationError({"__all__": "The body is a JSON object."})
    return data


def _parsed(form_class, data, municipality) -> dict:
    scoped_form = issubclass(form_class, ScopedForm)
    form = form_class(data, **({"municipality": municipality} if scoped_form else {}))
    if not form.is_valid():
        raise ValidationError({field: list(errors) for field, errors in form.errors.items()})
    return form.cleaned_data


@router.post("/cases/{pk}/steps/{step}", response=CaseOut, summary="A step on a case (the staff page's form)")
def case_step(request, pk: int, step: str):
    """`step` is a staff page's name: impoundment-notice, quarantine-examination,
    declaration-hearing, requirement-proof (with `requirement_id`), complaint-next-step (with
    `complaint_id`), citation-paid, case-close, ... The body is the form's fields as JSON."""
    case = get_for_user(request.auth, Case.objects, pk)
    if step not in STEPS:
        raise Http404(f"No step {step!r}; steps: {', '.join(STEPS)}.")
    prefix, _, form_class, action, _ = STEPS[step]
    data = _body(request)
    try:
        target = TARGETS[prefix](case, data)
    except ObjectDoesNotExist as e:
        raise Http404(f"Step {step!r} does not apply to this case.") from e
    action(target, acting_user=request.auth, **_parsed(form_class, data, case.municipality))
    case.refresh_from_db()
    return case


@router.post("/municipalities/{slug}/cases/{kind}", response={201: CaseOut}, summary="Open a case of any kind")
def open_case(request, slug: str, kind: str):
    """`kind`: complaint, impoundment, bite, exposure, district, declaration, declared-elsewhere,
    citation; the body is the staff page's form fields (animal, owner, person as ids)."""
    m = municipality_for(request.auth, slug)
    name = f"{kind}-new"
    if name not in NEW:
        raise Http404(f"No case kind {kind!r}.")
    form_class, action, _ = NEW[name]
    obj = action(acting_user=request.auth, municipality=m, **_parsed(form_class, _body(request), m))
    return Status(201, obj.case)
