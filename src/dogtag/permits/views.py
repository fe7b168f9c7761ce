from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from dogtag.accounts.scope import get_for_user, has_role
from dogtag.audit.models import AuditEvent
from dogtag.enforcement import law
from dogtag.enforcement.models import Declaration
from dogtag.lib.dates import shown, today
from dogtag.lib.pdf import pdf_response
from dogtag.lib.stored_files import stored_file_response
from dogtag.lib.tables import exports
from dogtag.lib.web import municipality_for, posted, run_action
from dogtag.licensing.law import pack_of
from dogtag.permits import actions, tables
from dogtag.permits.forms import (
    HenPermitForm,
    HenRenewForm,
    HenRevokeForm,
    ViciousDogPermitForm,
    ViciousDogRenewForm,
)
from dogtag.permits.models import HenPermit
from dogtag.permits.tables import HEN_PERMITS
from dogtag.registry.pickers import chosen_on_return
from dogtag.rules import offered

# --- hen permits ---------------------------------------------------------------------------------


@login_required
@exports(tables.hen_permits)
def hen_permits(request, slug, report):
    municipality = report.municipality
    status = request.GET.get("status")
    (permits,) = report.pages(request)
    return render(
        request,
        "permits/hen_permits.html",
        {
            "municipality": municipality,
            "permits": permits,
            "statuses": HenPermit.Status.choices,
            "status": status,
            "can_issue": has_role(request.user, municipality.pk, actions.ISSUERS),
        },
    )


@login_required
def hen_permit_new(request, slug):
    municipality = municipality_for(request, slug, actions.ISSUERS)
    if not offered.hen_permit(pack_of(municipality)):
        text = f"The ordinance of the {municipality} has no hen permit."
        return render(request, "dogtag/not_in_the_law.html", {"municipality": municipality, "text": text}, status=404)
    initial = {}
    renewing = request.GET.get("renewal_of", "")
    if renewing.isdigit():
        earlier = HEN_PERMITS.filter(municipality=municipality, pk=renewing).first()
        if earlier is not None:
            initial = {f: getattr(earlier, f) for f in ("zoning", "owners_of_record", "premises_registration", "hens")}
            initial.update(applicant=earlier.applicant_id, premises=earlier.premises_id, renewal_of=earlier.pk)
            initial["changes"] = True
    form = HenPermitForm(request.POST or None, request.FILES or None, municipality=municipality, initial=initial)
    chosen_on_return(request, form)  # back from a picker's "New person / New premises" page, the record chosen
    if request.method == "POST" and form.is_valid():
        permit = run_action(
            form,
            actions.decide_hen_permit,
            acting_user=request.user,
            municipality=municipality,
            fields=form.action_fields(),
        )
        if permit:
            return redirect("hen-permit", pk=permit.pk)
    return render(request, "permits/form.html", {"form": form, "title": f"Hen permit application — {municipality}"})


@login_required
def hen_permit(request, pk):
    permit = get_for_user(request.user, HEN_PERMITS, pk)
    return render(
        request,
        "permits/hen_permit.html",
        {
            "permit": permit,
            "renewals": permit.renewals.all(),
            "can_issue": has_role(request.user, permit.municipality_id, actions.ISSUERS),
            "events": AuditEvent.objects.for_object(permit).select_related("actor"),
        },
    )


@login_required
def hen_permit_pdf(request, pk):
    permit = get_for_user(request.user, HEN_PERMITS, pk)
    if permit.status != HenPermit.Status.ISSUED:
        raise Http404(f"Hen permit #{permit.pk} is {permit.get_status_display().lower()}: no permit to print.")
    context = {"permit": permit, "municipality": permit.municipality, "case": None}
    return pdf_response("permits/hen_permit_pdf.html", context, f"hen-permit-{permit.pk}.pdf")


@login_required
def hen_permit_site_plan(request, pk):
    permit = get_for_user(request.user, HEN_PERMITS, pk)
    if not permit.site_plan:
        raise Http404("No site plan is on file.")
    name = permit.site_plan.name.rsplit("/", 1)[-1]
    return stored_file_response(request, permit.site_plan, "site plan", filename=name)


def _hen_page(request, permit, form, action, template, extra):
    if request.method == "POST" and form.is_valid():
        fields = form.action_fields() if hasattr(form, "action_fields") else None
        result = run_action(form, action, permit, acting_user=request.user, fields=fields)
        if result:
            return redirect("hen-permit", pk=result.pk)
    return render(request, template, {"permit": permit, "form": form, **extra})


@login_required
def hen_permit_renew(request, pk):
    """§ 7-1-26(d)(7): the renewal fee when nothing changed; changes go to a new full application."""
    permit = get_for_user(request.user, HEN_PERMITS, pk, actions.ISSUERS)
    return _hen_page(
        request,
        permit,
        HenRenewForm(posted(request)),
        actions.renew_hen_permit,
        "permits/hen_permit_renew.html",
        {"renewed_by": permit.renewals.filter(status=HenPermit.Status.ISSUED).first()},
    )


@login_required
def hen_permit_revoke(request, pk):
    permit = get_for_user(request.user, HEN_PERMITS, pk, actions.ISSUERS)
    grounds = law.ask(permit.municipality, "hen_permit_revocation", {}, today())
    return _hen_page(
        request,
        permit,
        HenRevokeForm(posted(request)),
        actions.revoke_hen_permit,
        "permits/hen_permit_revoke.html",
        {"grounds": grounds},
    )


# --- vicious-dog permits ---------------------------------------------------------------------------


def _declaration(request, pk, roles=None):
    qs = Declaration.objects.select_related("case", "animal", "municipality")
    return get_for_user(request.user, qs, pk, *([roles] if roles else []))


def _vicious_page(request, declaration, form, action, title, quote_facts):
    """Issue or renew: the form, the fee and term the engine gives today (with the why), and the
    permits already issued."""
    if request.method == "POST" and form.is_valid():
        result = run_action(form, action, declaration, acting_user=request.user)
        if result:
            return redirect("declaration-vicious-dog-permits", pk=declaration.pk)
    facts = {"insurance_shown": True, "insurance_statement_signed": True, **quote_facts}
    quote = law.ask(declaration.municipality, "vicious_dog_permit", facts, today())
    return render(
        request,
        "permits/vicious_dog_permit_form.html",
        {
            "declaration": declaration,
            "form": form,
            "title": title,
            "quote": quote,
            # a renewal after the day its fee was due: that day, as on paper
            "fee_was_due": shown(quote.value.renewed_after_due),
            "permits": tables.vicious_dog_permits_of(declaration).page(request),
        },
    )


@login_required
def vicious_dog_permit(request, pk):
    declaration = _declaration(request, pk, actions.ISSUERS)
    return _vicious_page(
        request,
        declaration,
        ViciousDogPermitForm(posted(request)),
        actions.issue_vicious_dog_permit,
        f"Vicious-dog permit — {declaration.animal}",
        {},
    )


@login_required
def vicious_dog_permit_renew(request, pk):
    declaration = _declaration(request, pk, actions.ISSUERS)
    latest = declaration.vicious_dog_permits.order_by("-issued_on", "-pk").first()
    facts = {"renews_expiring_on": actions.expiry(latest)} if latest else {}
    return _vicious_page(
        request,
        declaration,
        ViciousDogRenewForm(posted(request)),
        actions.renew_vicious_dog_permit,
        f"Renew the vicious-dog permit — {declaration.animal}",
        facts,
    )


@login_required
@exports(tables.vicious_dog_permits)
def vicious_dog_permits(request, pk, report):
    declaration = report.declaration
    case = declaration.case
    return render(
        request,
        "permits/vicious_dog_permits.html",
        {
            "declaration": declaration,
            "case": case,
            "permits": report.tables[0].page(request),
            "renewal": case.deadlines.filter(key=actions.RENEWAL_KEY, superseded=False).order_by("-due_on").first(),
            "in_force": declaration.in_force,
            "can_issue": has_role(request.user, declaration.municipality_id, actions.ISSUERS),
            "today": today(),
            "case_url": reverse("case", args=[case.pk]),
        },
    )
