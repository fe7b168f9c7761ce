"""The clerk's kennel license pages (§ 115-3B); the review and its reasons are kennels/rules.py's."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from dogtag.accounts.scope import get_for_user, has_role
from dogtag.audit.models import AuditEvent
from dogtag.lib.dates import shown
from dogtag.lib.pdf import pdf_response
from dogtag.lib.tables import exports
from dogtag.lib.web import action_page, municipality_for, posted, run_action, to
from dogtag.licensing import tables
from dogtag.licensing.actions import CLERKS
from dogtag.licensing.forms import ReasonForm
from dogtag.licensing.kennels import actions as kennel_licenses
from dogtag.licensing.kennels import rules as kennels
from dogtag.licensing.kennels.forms import CorrectionForm, InspectionForm, KennelApplicationForm
from dogtag.licensing.models import Inspection, KennelLicense
from dogtag.licensing.payment_fields import PaymentFields
from dogtag.licensing.views import action_view
from dogtag.registry.models import today
from dogtag.registry.pickers import chosen_on_return

_KENNELS = KennelLicense.objects.select_related("municipality", "owner", "premises")


@login_required
@exports(tables.kennels)
def kennel_list(request, slug, report):
    (licenses,) = report.pages(request)
    return render(request, "licensing/kennel_list.html", {"municipality": report.municipality, "kennels": licenses})


@login_required
def kennel_new(request, slug):
    municipality = municipality_for(request, slug, CLERKS)
    if kennels.provision(municipality) is None:
        raise Http404("This municipality's law requires no kennel license.")
    initial = {"license_year": today().year, "signed_on": today()}
    form = chosen_on_return(request, KennelApplicationForm(posted(request), municipality=municipality, initial=initial))
    return action_page(
        request,
        form,
        kennel_licenses.apply_for_kennel_license,
        municipality=municipality,
        title=f"Kennel license application — {municipality}",
        done=to("kennel"),
    )


@login_required
def kennel(request, pk):
    kennel = get_for_user(request.user, _KENNELS, pk)
    on = today()
    open_application = kennel.status == KennelLicense.Status.APPLIED and not kennel.voided_at
    review = kennels.review(kennel, on) if open_application else None
    can_edit = has_role(request.user, kennel.municipality_id, CLERKS)
    form = PaymentFields(posted(request), initial={"method": "cash", "amount": review.fee if review else None})
    if request.method == "POST" and can_edit and form.is_valid():
        approve = kennel_licenses.approve_kennel_license
        if run_action(form, approve, kennel, acting_user=request.user, on=on, fields={"payment": form.payment()}):
            return redirect("kennel", pk=pk)
    context = {
        "kennel": kennel,
        "review": review,
        "form": form,
        "can_edit": can_edit,
        "inspections": kennel.inspections.all(),
        "dogs": kennels.dogs_at(kennel.premises).order_by("name"),
        "events": AuditEvent.objects.for_object(kennel),
        "on": on,
    }
    return render(request, "licensing/kennel.html", context)


kennel_inspect = action_view(
    _KENNELS,
    kennel_licenses.record_inspection,
    InspectionForm,
    lambda kennel: f"Inspection of the kennel at {kennel.premises}",
    to("kennel"),
    initial=lambda: {"inspected_on": today()},
)
kennel_inspection_correct = action_view(
    Inspection.objects.select_related("kennel_license"),
    kennel_licenses.record_correction,
    CorrectionForm,
    lambda inspection: f"Problems found on {shown(inspection.inspected_on)} corrected",
    lambda inspection: reverse("kennel", args=[inspection.kennel_license_id]),
    initial=lambda: {"corrected_on": today()},
)
kennel_refuse = action_view(
    _KENNELS,
    kennel_licenses.refuse_kennel_application,
    ReasonForm,
    lambda kennel: f"Refuse the kennel license application for {kennel.premises}",
    to("kennel"),
)
kennel_void = action_view(
    _KENNELS,
    kennel_licenses.void_kennel_license,
    ReasonForm,
    lambda kennel: f"Void {kennel}",
    to("kennel"),
    submit="Void",
    destructive=True,
)


@login_required
def kennel_certificate(request, pk):
    kennel = get_for_user(request.user, _KENNELS, pk)
    context = {"kennel": kennel, "municipality": kennel.municipality, "inspections": kennel.inspections.all()}
    filename = f"kennel-license-{kennel.license_year}-{kennel.pk}.pdf"
    return pdf_response("licensing/kennel_certificate.html", context, filename)
