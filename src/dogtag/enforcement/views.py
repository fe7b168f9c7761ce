"""The officer's pages: cases, the steps on them (each a form calling one action), my cases,
the calendar feed and the printable documents. Thin: parse, call the action, render."""

from collections import defaultdict
from functools import reduce
from operator import or_

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import F, OuterRef, Prefetch, Q, Subquery, prefetch_related_objects
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone

from dogtag.accounts.models import Role
from dogtag.accounts.scope import get_for_user, has_role, municipalities, scoped
from dogtag.audit.models import AuditEvent
from dogtag.enforcement import actions, calendar, forms, law, pdf
from dogtag.enforcement.models import (
    BiteReport,
    Case,
    Citation,
    Complaint,
    Deadline,
    Declaration,
    DistrictQuarantine,
    Impoundment,
    QuarantineOrder,
    Requirement,
    today,
)
from dogtag.lib.csv_export import csv_export
from dogtag.registry.views import action_page


def _municipality(request, slug):
    return get_object_or_404(municipalities(request.user), slug=slug)


def case_url(case_id):
    return reverse("case", args=[case_id])


def _form(form_class, request, municipality, **kwargs):
    if issubclass(form_class, forms.ScopedForm):
        kwargs["municipality"] = municipality
    initial = request.GET.dict() if request.method == "GET" else None  # "Impound" from a case: the animal
    return form_class(request.POST or None, request.FILES or None, initial=initial, **kwargs)


# --- lists ------------------------------------------------------------------------------------


PENDING = Deadline.objects.filter(done_on=None, superseded=False).order_by("due_on", "pk")


def open_cases(user):
    """Open cases in every municipality the user serves, the soonest next deadline first (so the
    overdue ones on top), cases without one last; ordered in the database, so a page of them
    costs the same whatever the number of cases."""
    next_due = PENDING.filter(case=OuterRef("pk")).values("due_on")[:1]
    return (
        scoped(user, Case.objects.filter(closed_on=None))
        .annotate(next_due=Subquery(next_due))
        .order_by(F("next_due").asc(nulls_last=True), "pk")
        .select_related("municipality", "animal", "owner")
    )


MY_CASES_PAGE = 100


@login_required
@csv_export
def my_cases(request):
    cases = open_cases(request.user)
    everything = request.GET.get("format") == "csv"  # the CSV has them all
    per_page = max(cases.count(), 1) if everything else MY_CASES_PAGE
    page = Paginator(cases, per_page).get_page(request.GET.get("page"))
    prefetch_related_objects(page.object_list, Prefetch("deadlines", queryset=PENDING, to_attr="pending"))
    page.object_list = [{"case": case, "next": next(iter(case.pending), None)} for case in page.object_list]
    return render(
        request,
        "enforcement/my_cases.html",
        {"page": page, "today": today(), "feed_url": calendar.feed_url(request, request.user)},
    )


@login_required
@csv_export
def municipality_cases(request, slug):
    municipality = _municipality(request, slug)
    cases = Case.objects.filter(municipality=municipality).select_related("animal", "owner")[:200]
    return render(request, "enforcement/cases.html", {"municipality": municipality, "cases": cases})


# --- new cases --------------------------------------------------------------------------------

NEW = {
    # url name: (form, action, title)
    "complaint-new": (forms.ComplaintForm, actions.record_complaint, "Record a complaint"),
    "impoundment-new": (forms.ImpoundForm, actions.impound, "Impound an animal"),
    "bite-new": (forms.BiteForm, actions.report_bite, "Report a bite"),
    "exposure-new": (forms.ExposureForm, actions.order_exposure_quarantine, "Quarantine after exposure to rabies"),
    "district-new": (forms.DistrictForm, actions.declare_district_quarantine, "District rabies quarantine"),
    "declaration-new": (forms.DeclareForm, actions.declare_dog, "Declare a dog dangerous or vicious"),
    "citation-new": (forms.CitationForm, actions.issue_citation, "Issue a citation"),
    "declared-elsewhere-new": (
        forms.DeclaredElsewhereForm,
        actions.register_declared_elsewhere,
        "A dog declared dangerous or vicious elsewhere",
    ),
}


@login_required
def new_case(request, slug, name):
    municipality = _municipality(request, slug)
    form_class, action, title = NEW[name]
    form = _form(form_class, request, municipality)
    return action_page(
        request,
        form,
        action,
        municipality=municipality,
        title=f"{title} — {municipality}",
        done=lambda obj: case_url(obj.case_id),
    )


# --- one case ---------------------------------------------------------------------------------


@login_required
def case(request, pk):
    case = get_for_user(request.user, Case.objects.select_related("municipality", "animal", "owner"), pk)
    detail = {}
    if case.kind == Case.Kind.IMPOUNDMENT:
        detail["impoundment"] = imp = case.impoundment
        if not imp.disposition:
            detail["release"] = actions.release_decision(imp, on=today())
            detail["can_license"] = has_role(request.user, case.municipality_id, (Role.CLERK, Role.ADMINISTRATOR))
    elif case.kind in (Case.Kind.BITE, Case.Kind.EXPOSURE):
        detail["bite"] = getattr(case, "bite", None)
        detail["quarantine"] = getattr(case, "quarantine", None)
    elif case.kind == Case.Kind.DECLARATION:
        decl = detail["declaration"] = case.declaration
        detail["requirements"] = decl.requirements.all()
        detail["hearings"] = decl.hearings.all()
        detail["appeals"] = decl.appeals.all()
        detail["escape_notifications"] = decl.escape_notifications.all()
        detail["compliance_failures"] = decl.compliance_failures.select_related("revoked_license")
        if decl.classification == Declaration.Classification.VICIOUS:
            detail["permit_fee"] = law.ask(case.municipality, "vicious_dog_permit_fee", {}, today())
        detail["steps"] = declaration_steps(decl, list(detail["hearings"]), list(detail["appeals"]))
    elif case.kind == Case.Kind.COMPLAINT:
        detail["complaints"] = case.complaints.select_related("animal", "owner")
    elif case.kind == Case.Kind.CITATION:
        detail["citation"] = case.citation
    elif case.kind == Case.Kind.DISTRICT:
        detail["district"] = case.district
    deadlines = case.deadlines.filter(superseded=False)
    events = AuditEvent.objects.filter(_history(case), municipality=case.municipality).select_related("actor")
    return render(
        request,
        "enforcement/case.html",
        {"case": case, "deadlines": deadlines, "events": events, "today": today(), "show_object": True, **detail},
    )


# The records under a case's procedure record whose events belong in the case's history.
PARTS = {
    "quarantine": ("examinations",),
    "declaration": ("requirements", "hearings", "appeals", "escape_notifications", "vicious_dog_permits"),
}


def declaration_steps(decl, hearings, appeals) -> set[str]:
    """The steps the declaration's state and its ordinance allow next (each step page still checks)."""
    m, on, steps = decl.municipality, today(), set()
    hearing = max(hearings, key=lambda h: h.pk, default=None)
    pending_appeal = any(a.decided_on is None for a in appeals)
    if hearing is not None and hearing.held_on:
        steps.add("decision-pdf")
    if not decl.in_force:
        return steps
    if decl.moved_in_on and not decl.owner_notified_on:
        steps.add("elsewhere-notice")
    elif not decl.effective_on:
        steps.add("serve")
    elif not decl.contest_requested_on:
        contest = law.ask(m, "contest_deadline", {"served_on": decl.effective_on}, on)
        steps.add("hearing-request" if contest.value is not None else "appeal")
    if decl.contest_timely and hearing is None:
        steps.add("hearing")
    if hearing is not None and not hearing.held_on:
        steps.add("hearing-decision")
    if hearing is not None and hearing.held_on and not hearing.decision_received_on:
        steps.add("decision-received")
    if hearing is not None and hearing.decision_received_on and not appeals:
        steps.add("appeal")
    if pending_appeal:
        steps.add("appeal-decision")
        steps.discard("appeal")
    if law.ask(m, "removal_deadline", {"served_at": timezone.now()}, on).value is not None:
        steps.add("removal")
    facts = {"classification": decl.classification, "event": "escaped_at_large"}
    escape = law.ask(m, "dangerous_dog_escape_notice", facts, on)
    if escape.value and escape.value["required"]:
        steps.add("escape")
    if law.ask(m, "failure_to_comply", {"classification": decl.classification}, on).value is not None:
        steps.add("failure")
    waiver = {
        "classification": decl.classification,
        "declared_on": decl.determined_on,
        "no_subsequent_violations": False,
        "complied_throughout": False,
        "behavior_program_completed": False,
    }
    if law.ask(m, "declaration_waiver", waiver, on).value is not None:
        steps.add("waiver")
    if decl.classification == Declaration.Classification.VICIOUS and not decl.vicious_dog_permits.exists():
        if law.ask(m, "vicious_dog_permit_fee", {}, on).value is not None:
            steps.add("vicious-dog-permit")
    return steps


def _history(case) -> Q:
    """The audit events of the case, its procedure's record and every record under it, each
    matched by its type and id."""
    records = [case, *case.complaints.all()]
    for rel in ("impoundment", "bite", "quarantine", "declaration", "citation", "district"):
        obj = getattr(case, rel, None)
        if obj is not None:
            records.append(obj)
            for part in PARTS.get(rel, ()):
                records += list(getattr(obj, part).all())
    ids = defaultdict(set)
    for record in records:
        ids[record._meta.label_lower].add(str(record.pk))
    return reduce(or_, (Q(object_type=label, object_id__in=pks) for label, pks in ids.items()))


# --- steps on a case --------------------------------------------------------------------------


def _latest(related):
    def pick(decl):
        obj = getattr(decl, related).order_by("-pk").first()
        if obj is None:
            raise ValidationError({"__all__": f"No {related[:-1]} is recorded on this declaration."})
        return obj

    return pick


def _on(pick, action):
    return lambda obj, **kw: action(pick(obj), **kw)


STEPS = {
    # url name: (url prefix, model, form, action, title)
    "case-close": ("cases", Case, forms.ReasonForm, actions.close_case, "Close"),
    "impoundment-notice": (
        "impoundments",
        Impoundment,
        forms.NoticeForm,
        actions.give_impound_notice,
        "Notice to the owner",
    ),
    "impoundment-release": (
        "impoundments",
        Impoundment,
        forms.ReleaseForm,
        actions.release_impoundment,
        "Release to the owner",
    ),
    "impoundment-dispose": (
        "impoundments",
        Impoundment,
        forms.DisposeForm,
        actions.dispose_unclaimed,
        "Unclaimed: disposition",
    ),
    "complaint-next-step": (
        "complaints",
        Complaint,
        forms.NoticeStepForm,
        actions.record_notice_step,
        "Written notice to the owner, then the repeat",
    ),
    "bite-quarantine": (
        "bites",
        BiteReport,
        forms.QuarantineForm,
        actions.order_bite_quarantine,
        "Order the quarantine",
    ),
    "quarantine-delivery": (
        "quarantines",
        QuarantineOrder,
        forms.DeliveryForm,
        actions.record_delivery,
        "Delivered to isolation",
    ),
    "quarantine-examination": (
        "quarantines",
        QuarantineOrder,
        forms.ExaminationForm,
        actions.record_examination,
        "Record an examination",
    ),
    "quarantine-extend": (
        "quarantines",
        QuarantineOrder,
        forms.ExtendForm,
        actions.extend_quarantine,
        "Extend the isolation",
    ),
    "quarantine-release": (
        "quarantines",
        QuarantineOrder,
        forms.QuarantineReleaseForm,
        actions.release_quarantine,
        "Release from quarantine",
    ),
    "quarantine-symptoms": (
        "quarantines",
        QuarantineOrder,
        forms.SymptomsForm,
        actions.record_symptoms,
        "Symptoms, euthanasia and laboratory submission",
    ),
    "quarantine-lab-result": (
        "quarantines",
        QuarantineOrder,
        forms.LabResultForm,
        actions.record_lab_result,
        "Laboratory result",
    ),
    "declaration-serve": (
        "declarations",
        Declaration,
        forms.ServeForm,
        actions.serve_declaration,
        "Service of the determination",
    ),
    "declaration-hearing-request": (
        "declarations",
        Declaration,
        forms.HearingRequestForm,
        actions.request_hearing,
        "The owner's request for a hearing",
    ),
    "declaration-hearing": (
        "declarations",
        Declaration,
        forms.ScheduleHearingForm,
        actions.schedule_hearing,
        "Schedule the hearing",
    ),
    "declaration-hearing-decision": (
        "declarations",
        Declaration,
        forms.DecideHearingForm,
        _on(_latest("hearings"), actions.decide_hearing),
        "Hearing decision",
    ),
    "declaration-decision-received": (
        "declarations",
        Declaration,
        forms.DecisionReceivedForm,
        _on(_latest("hearings"), actions.record_decision_received),
        "Decision received by the owner",
    ),
    "declaration-appeal": ("declarations", Declaration, forms.AppealForm, actions.file_appeal, "Appeal"),
    "declaration-appeal-decision": (
        "declarations",
        Declaration,
        forms.DecideAppealForm,
        _on(_latest("appeals"), actions.decide_appeal),
        "Appeal decided",
    ),
    "declaration-removal": (
        "declarations",
        Declaration,
        forms.RemovalForm,
        actions.serve_removal_notice,
        "Written notice to remove the dog",
    ),
    "declaration-escape": (
        "declarations",
        Declaration,
        forms.EscapeNotificationForm,
        actions.record_escape_notification,
        "Escape, bite or attack: the notice to the police",
    ),
    "declaration-elsewhere-notice": (
        "declarations",
        Declaration,
        forms.ElsewhereNoticeForm,
        actions.record_elsewhere_notice,
        "The owner's notice of a dog declared elsewhere",
    ),
    "declaration-failure": (
        "declarations",
        Declaration,
        forms.FailureToComplyForm,
        actions.record_failure_to_comply,
        "Failure to comply: the license and permit revoked, the dog subject to seizure",
    ),
    "declaration-waiver": (
        "declarations",
        Declaration,
        forms.WaiverForm,
        actions.apply_for_waiver,
        "Application for a waiver",
    ),
    "requirement-proof": (
        "requirements",
        Requirement,
        forms.ProofForm,
        actions.record_requirement_proof,
        "Proof of compliance",
    ),
    "requirement-impose": (
        "requirements",
        Requirement,
        forms.ImposeForm,
        actions.impose_requirement,
        "Impose this requirement",
    ),
    "citation-paid": ("citations", Citation, forms.PaidForm, actions.record_citation_paid, "Forfeiture paid"),
    "citation-cure": ("citations", Citation, forms.CureForm, actions.record_cure, "Violation cured"),
    "citation-void": ("citations", Citation, forms.ReasonForm, actions.void_citation, "Void the citation"),
}


def _case_id(obj):
    if isinstance(obj, Case):
        return obj.pk
    if isinstance(obj, Requirement):
        return obj.declaration.case_id
    return obj.case_id


@login_required
def step(request, pk, name):
    _, model, form_class, action, title = STEPS[name]
    obj = get_for_user(request.user, model.objects.all(), pk)
    form = _form(form_class, request, obj.municipality)
    return action_page(request, form, action, obj, title=f"{title} — {obj}", done=lambda _: case_url(_case_id(obj)))


# --- documents ------------------------------------------------------------------------------------

DOCUMENTS = {
    # url name: (url prefix, model, template, file name)
    "impoundment-notice-pdf": ("impoundments", Impoundment, "impound_notice", "impound-notice"),
    "impoundment-posting-pdf": ("impoundments", Impoundment, "impound_posting", "impound-posting"),
    "quarantine-order-pdf": ("quarantines", QuarantineOrder, "quarantine_order", "quarantine-order"),
    "quarantine-examinations-pdf": ("quarantines", QuarantineOrder, "examination_record", "examination-record"),
    "complaint-notice-pdf": ("complaints", Complaint, "at_large_notice", "at-large-notice"),
    "complaint-petition-pdf": ("complaints", Complaint, "petition", "petition"),
    "district-notice-pdf": ("districts", DistrictQuarantine, "district_notice", "district-quarantine"),
    "declaration-determination-pdf": ("declarations", Declaration, "determination", "determination"),
    "declaration-hearing-notice-pdf": ("declarations", Declaration, "hearing_notice", "hearing-notice"),
    "declaration-decision-pdf": ("declarations", Declaration, "decision", "decision"),
    "declaration-checklist-pdf": ("declarations", Declaration, "checklist", "compliance-checklist"),
    "citation-pdf": ("citations", Citation, "citation", "citation"),
}


@login_required
def document(request, pk, name):
    _, model, template, filename = DOCUMENTS[name]
    obj = get_for_user(request.user, model.objects.all(), pk)
    context = pdf.context_for(obj)
    if context is None:
        raise Http404("This document does not apply to this record.")
    return pdf.response(f"enforcement/pdf/{template}.html", context, f"{filename}-{obj.pk}.pdf")


# --- calendar -----------------------------------------------------------------------------------


def calendar_feed(request, user_id, token):
    user = calendar.user_for(user_id, token)
    if user is None:
        raise Http404("No such calendar.")
    deadlines = scoped(user, Deadline.objects.open()).select_related("case", "municipality")
    body = calendar.ics(deadlines, request.build_absolute_uri("/").rstrip("/"))
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")


@login_required
def calendar_reset(request):
    if request.method == "POST":
        calendar.rotate(request.user)
    return my_cases(request)
