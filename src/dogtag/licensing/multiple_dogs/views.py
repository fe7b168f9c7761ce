"""The clerk's multiple-dog license pages (s. 174.053); the quote and its reasons are multiple_dogs/rules.py's."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render

from dogtag.accounts.scope import get_for_user, has_role
from dogtag.audit.models import AuditEvent
from dogtag.lib.pdf import pdf_response
from dogtag.lib.tables import exports
from dogtag.lib.web import posted, run_action, to
from dogtag.licensing import tables
from dogtag.licensing.actions.roles import CLERKS, REVOKERS
from dogtag.licensing.models import License
from dogtag.licensing.multiple_dogs import actions as multiple_dog_licenses
from dogtag.licensing.multiple_dogs import rules as multiple_dogs
from dogtag.licensing.multiple_dogs.forms import MultipleDogForm, RevokeForm
from dogtag.licensing.views import action_view
from dogtag.licensing.years import chosen_year, license_years_on_sale, why_preselected
from dogtag.registry.models import Animal, Ownership, Person, today


@login_required
@exports(tables.multiple_dogs_of)
def licenses(request, slug, report):
    municipality = report.municipality
    q = request.GET.get("q", "").strip()
    keepers = Person.objects.filter(municipality=municipality, name__icontains=q).order_by("name")[:20] if q else []
    (issued,) = report.pages(request)
    context = {"municipality": municipality, "q": q, "keepers": keepers, "licenses": issued}
    return render(request, "licensing/multiple_dog_list.html", context)


@login_required
def apply(request, pk):
    keeper = get_for_user(request.user, Person.objects.select_related("municipality"), pk)
    municipality = keeper.municipality
    if multiple_dogs.provision(municipality) is None:
        raise Http404("This municipality's law has no multiple-dog license.")
    on = today()
    kept = Ownership.objects.current(on).filter(person=keeper).values("animal_id")
    dogs = Animal.objects.filter(municipality=municipality, species=Animal.Species.DOG, status=Animal.Status.ACTIVE)
    dogs = list(dogs.filter(pk__in=kept).order_by("name"))
    try:
        count = int(request.POST.get("dogs") or request.GET.get("dogs") or len(dogs))
    except ValueError:
        count = len(dogs)
    # December: next year's licenses are on sale once its tags are in stock, as at the counter.
    years = license_years_on_sale(municipality, on)
    q = multiple_dogs.quote(municipality, count, on, chosen_year(request, years))
    initial = {"dogs": count, "amount": q.tax, "method": "cash", "animals": [str(d.pk) for d in dogs]}
    recompute = request.method == "POST" and "recompute" in request.POST
    if recompute:
        # "Recompute" prices the number typed and keeps everything else the clerk entered.
        kept = {name: request.POST.get(name, "") for name in ("method", "check_number", "card_reference")}
        initial |= {**kept, "animals": request.POST.getlist("animals")}
        initial["inspection_consent"] = bool(request.POST.get("inspection_consent"))
    form = MultipleDogForm(None if recompute else posted(request), dogs=dogs, initial=initial)
    can_issue = has_role(request.user, municipality.pk, CLERKS)
    if request.method == "POST" and not recompute and can_issue and form.is_valid():
        fields = {
            "keeper": keeper,
            "dogs": form.cleaned_data["dogs"],
            "animals": [d for d in dogs if str(d.pk) in form.cleaned_data["animals"]],
            "inspection_consent": form.cleaned_data["inspection_consent"],
            "payment": form.payment(),
            "license_year": q.license_year,
        }
        issue = multiple_dog_licenses.issue_multiple_dog_license
        license = run_action(form, issue, acting_user=request.user, municipality=municipality, on=on, fields=fields)
        if license:
            return redirect("multiple-dog-license", pk=license.pk)
    context = {
        "keeper": keeper,
        "municipality": municipality,
        "quote": q,
        "years": years if len(years) > 1 else [],
        "why_year": why_preselected(years),
        "form": form,
        "on": on,
        "can_issue": can_issue,
    }
    return render(request, "licensing/multiple_dog_apply.html", context)


_LICENSES = License.objects.filter(kind=License.Kind.MULTIPLE_DOG).select_related("municipality", "payment")


def _license_context(request, pk):
    license = get_for_user(request.user, _LICENSES, pk)
    section = multiple_dogs.section_of(license.municipality)
    return {"license": license, "tags": license.tags.all(), "dogs": license.covered_animals.all(), "section": section}


@login_required
def license(request, pk):
    context = _license_context(request, pk)
    context["events"] = AuditEvent.objects.for_object(context["license"])
    return render(request, "licensing/multiple_dog_license.html", context)


revoke = action_view(
    _LICENSES,
    multiple_dog_licenses.revoke_multiple_dog_license,
    RevokeForm,
    lambda license: f"Revoke multiple-dog license {license.serial} ({multiple_dogs.section_of(license.municipality)})",
    to("multiple-dog-license"),
    roles=REVOKERS,
    submit="Revoke",
    destructive=True,
)


@login_required
def certificate(request, pk):
    context = _license_context(request, pk)
    license = context["license"]
    context["municipality"] = license.municipality
    filename = f"multiple-dog-license-{license.license_year}-{license.serial}.pdf"
    return pdf_response("licensing/multiple_dog_certificate.html", context, filename)
