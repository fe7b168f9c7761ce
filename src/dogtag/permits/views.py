from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from dogtag.accounts.scope import get_for_user, municipalities
from dogtag.audit.models import AuditEvent
from dogtag.enforcement import pdf
from dogtag.enforcement.models import Declaration
from dogtag.permits import actions
from dogtag.permits.forms import HenPermitForm, ViciousDogPermitForm
from dogtag.permits.models import HenPermit
from dogtag.registry.views import action_page, run_action


@login_required
def hen_permit_new(request, slug):
    municipality = get_object_or_404(municipalities(request.user), slug=slug)
    form = HenPermitForm(request.POST or None, request.FILES or None, municipality=municipality)
    if request.method == "POST" and form.is_valid():
        permit = run_action(form, actions.decide_hen_permit, acting_user=request.user, municipality=municipality)
        if permit:
            return redirect("hen-permit", pk=permit.pk)
    return render(request, "permits/form.html", {"form": form, "title": f"Hen permit application — {municipality}"})


@login_required
def hen_permit(request, pk):
    permit = get_for_user(request.user, HenPermit.objects.select_related("applicant", "premises"), pk)
    return render(
        request,
        "permits/hen_permit.html",
        {"permit": permit, "events": AuditEvent.objects.for_object(permit).select_related("actor")},
    )


@login_required
def hen_permit_pdf(request, pk):
    permit = get_for_user(request.user, HenPermit.objects.select_related("applicant", "premises"), pk)
    context = {"permit": permit, "municipality": permit.municipality, "case": None}
    return pdf.response("permits/hen_permit_pdf.html", context, f"hen-permit-{permit.pk}.pdf")


@login_required
def vicious_dog_permit(request, pk):
    declaration = get_for_user(request.user, Declaration.objects.select_related("case"), pk)
    form = ViciousDogPermitForm(request.POST or None)
    return action_page(
        request,
        form,
        actions.issue_vicious_dog_permit,
        declaration,
        title=f"Vicious-dog permit — {declaration.animal}",
        done=lambda permit: reverse("case", args=[declaration.case_id]),
    )
