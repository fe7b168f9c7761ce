"""The officer's pages: cases, the steps on them (each a form calling one action), my cases,
the calendar feed and the printable documents. Thin: parse, call the action, render."""

from collections import defaultdict
from functools import reduce
from operator import or_

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from dogtag.accounts.models import Role
from dogtag.accounts.scope import get_for_user, has_role, scoped
from dogtag.audit.models import AuditEvent
from dogtag.enforcement import actions, calendar, law, pdf, tables
from dogtag.enforcement.actions.calendar import reset_calendar
from dogtag.enforcement.models import (
    Case,
    Citation,
    Complaint,
    Deadline,
    Declaration,
    DistrictQuarantine,
    Impoundment,
    QuarantineOrder,
    Requirement,
)
from dogtag.enforcement.paying import how_to_pay
from dogtag.enforcement.steps import DESTRUCTIVE_STEPS, NEW, STEPS
from dogtag.lib.dates import today
from dogtag.lib.forms import ScopedForm
from dogtag.lib.pdf import pdf_response
from dogtag.lib.tables import exports
from dogtag.lib.web import action_page, municipality_for


def case_url(case_id):
    return reverse("case", args=[case_id])


def _form(form_class, request, municipality, **kwargs):
    if issubclass(form_class, ScopedForm):
        kwargs["municipality"] = municipality
    initial = request.GET.dict() if request.method == "GET" else None  # "Impound" from a case: the animal
    return form_class(request.POST or None, request.FILES or None, initial=initial, **kwargs)


# --- lists ------------------------------------------------------------------------------------


# Fifty cases a page: an officer works the top of the list (overdue first) and a page of fifty
# renders within the page goal of bench/animal_control.py at 100k (a hundred did not: 58 ms).
MY_CASES_PAGE = 50


@login_required
@exports(tables.my_cases)
def my_cases(request, report):
    (cases,) = report.pages(request, MY_CASES_PAGE)
    context = {"cases": cases, "today": today(), "feed_url": calendar.feed_url(request, request.user)}
    return render(request, "enforcement/my_cases.html", context)


@login_required
@exports(tables.cases)
def municipality_cases(request, slug, report):
    (cases,) = report.pages(request)
    return render(request, "enforcement/cases.html", {"municipality": report.municipality, "cases": cases})


# --- new cases --------------------------------------------------------------------------------


@login_required
def new_case(request, slug, name):
    municipality = municipality_for(request, slug)
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
        detail["pay"] = how_to_pay(case.citation, case.municipality)
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
        steps.add("hearing-request" if contest.value.applies else "appeal")
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
    if law.ask(m, "removal_deadline", {"served_at": timezone.now()}, on).value.applies:
        steps.add("removal")
    facts = {"classification": decl.classification, "event": "escaped_at_large"}
    escape = law.ask(m, "dangerous_dog_escape_notice", facts, on)
    if escape.value.required:
        steps.add("escape")
    if law.ask(m, "failure_to_comply", {"classification": decl.classification}, on).value.applies:
        steps.add("failure")
    waiver = {
        "classification": decl.classification,
        "declared_on": decl.determined_on,
        "no_subsequent_violations": False,
        "complied_throughout": False,
        "behavior_program_completed": False,
    }
    if law.ask(m, "declaration_waiver", waiver, on).value.applies:
        steps.add("waiver")
    if decl.classification == Declaration.Classification.VICIOUS and not decl.vicious_dog_permits.exists():
        if law.ask(m, "vicious_dog_permit_fee", {}, on).value.fee is not None:
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
    if name == "impoundment-release":
        form.fit_to_law(actions.release_decision(obj, on=today()).value)
    return action_page(
        request,
        form,
        action,
        obj,
        title=f"{title} — {obj}",
        done=lambda _: case_url(_case_id(obj)),
        submit=DESTRUCTIVE_STEPS.get(name, "Save"),
        destructive=name in DESTRUCTIVE_STEPS,
    )


# --- documents ------------------------------------------------------------------------------------

DOCUMENTS = {
    # url name: (url prefix, model, template, file name)
    "impoundment-notice-pdf": ("impoundments", Impoundment, "impound_notice", "impound-notice"),
    "impoundment-posting-pdf": ("impoundments", Impoundment, "impound_posting", "impound-posting"),
    "quarantine-order-pdf": ("quarantines", QuarantineOrder, "quarantine_order", "quarantine-order"),
    "quarantine-examinations-pdf": ("quarantines", QuarantineOrder, "examination_record", "examination-record"),
    "complaint-notice-pdf": ("complaints", Complaint, "at_large_notice", "at-large-notice"),
    "complaint-petition-pdf": ("complaints", Complaint, "petition", "petition"),
    "complaint-warning-pdf": ("complaints", Complaint, "warning_letter", "warning-letter"),
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
    if name == "complaint-warning-pdf" and not pdf.warning_letter_applies(obj):
        context = None
    if context is None:
        raise Http404("This document does not apply to this record.")
    try:
        if name == "impoundment-notice-pdf":
            pdf.impoundment_notice_date(obj, context)
    except pdf.NotServable as refused:
        return render(request, "enforcement/not_servable.html", {"obj": obj, "reason": str(refused)}, status=409)
    return pdf_response(f"enforcement/pdf/{template}.html", context, f"{filename}-{obj.pk}.pdf")


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
        reset_calendar(acting_user=request.user)
    return my_cases(request)
