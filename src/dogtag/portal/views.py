"""Public pages (no account: the token in a link is the key) and the clerk's review queue.
Thin: parse, call an action, render."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.forms.utils import ErrorDict
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dogtag.accounts.models import Role
from dogtag.accounts.scope import get_for_user, has_role
from dogtag.lib import links
from dogtag.lib.client import client_address
from dogtag.lib.dates import today
from dogtag.lib.stored_files import stored_file_response
from dogtag.lib.tables import exports
from dogtag.lib.web import municipality_for, posted, run_action
from dogtag.licensing import law
from dogtag.licensing.actions import report_animal
from dogtag.licensing.report_form import AnimalReportForm, open_kinds
from dogtag.licensing.years import license_years_on_sale
from dogtag.portal import actions, language, payments, tables, text_consent
from dogtag.portal.chips import AAHA_LOOKUP_URL
from dogtag.portal.forms import (
    OWNER,
    RABIES,
    ApplicationForm,
    ApproveForm,
    ChipForm,
    ContactForm,
    LookupForm,
    PayForm,
    RejectForm,
    RenewalCodeForm,
    StartForm,
)
from dogtag.portal.models import Application, MunicipalityContact
from dogtag.portal.quote import held_documents, plain_lines
from dogtag.registry.models import Animal, Municipality, Person


def _errors_into(form, error: ValidationError):
    for field, msgs in error.message_dict.items() if hasattr(error, "error_dict") else [(None, error.messages)]:
        form.add_error(field if field in form.fields else None, msgs)


def _licensing_municipalities():
    return [m for m in Municipality.objects.all() if "dog" in law.pack_of(m).licensing.species.species]


def home(request):
    licensing = _licensing_municipalities()
    years = sorted({y for m in licensing for y in license_years_on_sale(m, today())})
    # The front door's "Apply or renew" link names the municipality.
    chosen = request.GET.get("municipality", "")
    initial = {"municipality": int(chosen)} if chosen.isdigit() else {}
    form = StartForm(posted(request), years=years, initial=initial)
    form.fields["municipality"].queryset = Municipality.objects.filter(pk__in=[m.pk for m in licensing])
    if request.method == "POST" and form.is_valid():
        application = run_action(form, actions.start_application, client_address=client_address(request))
        if application:
            return redirect("portal-application", token=application.token)
    # The age each ordinance licenses at, from its pack ("more than 5 months of age"), never the template's.
    ages = sorted({law.licensable_age(m) for m in _licensing_municipalities()})
    return render(request, "portal/home.html", {"form": form, "licensable_ages": ages})


def renew(request, token):
    parsed = links.read_renewal_token(token)
    animal = Animal.objects.filter(pk=parsed[0]).first() if parsed else None
    if animal is None:
        raise Http404(_("This renewal link is not valid. Start a new application instead."))
    speaks = language.for_person(request, _owner(animal))
    with translation.override(speaks):
        try:
            application = actions.start_renewal(animal, parsed[1])
        except ValidationError as e:
            response = render(
                request,
                "portal/message.html",
                {"title": _("We could not open this renewal"), "text": " ".join(e.messages)},
                status=400,
            )
        else:
            response = redirect("portal-application", token=application.token)
    return language.keep(request, response, speaks)


def _owner(animal):
    return next((o.person for o in animal.current_owners()), None)


def renewal_code(request):
    """The front page's renewal code: opens the renewal its notice is for."""
    form = RenewalCodeForm(posted(request))
    if request.method == "POST" and form.is_valid():
        application = run_action(form, actions.open_renewal_by_code, client_address=client_address(request))
        if application:
            return redirect("portal-application", token=application.token)
    status = 400 if form.errors else 200
    return render(request, "portal/renewal_code.html", {"form": form}, status=status)


def _pet_path(app) -> str | None:
    """The owner's page for the animal a renewal is of (report it lost, found, deceased, moved)."""
    return reverse("portal-pet", args=[links.pet_token(app.animal_id)]) if app.animal_id else None


def _form_page(request, app, form, **extra):
    context = {
        "application": app,
        "pet_path": _pet_path(app),
        "held": held_documents(app, app.data.get("certificate_serial"), today()),
        "form": form,
        "owner_fields": [form[name] for name in OWNER],
        "rabies_fields": [form[name] for name in RABIES],
        **extra,
    }
    return render(request, "portal/application.html", context)


def _application(token):
    return get_object_or_404(Application.objects.select_related("municipality", "license"), token=token)


def application(request, token):
    app = _application(token)
    if app.status != Application.Status.DRAFT:
        return render(request, "portal/status.html", {"application": app, "pet_path": _pet_path(app)})
    upload_errors = {}
    if request.method == "POST":
        upload_errors = actions.save_draft(
            app, post=request.POST, files=request.FILES, client_address=client_address(request)
        )
        if not upload_errors:
            if request.POST.get("step") == "review":
                return redirect("portal-review", token=app.token)
            messages.success(request, _("Saved. Use the link we emailed you to come back at any time."))
    form = ApplicationForm(initial=app.data, application=app)
    # A bad upload is reported beside its field; what was typed is kept either way.
    form.cleaned_data, form._errors = {}, ErrorDict()
    for field, error in upload_errors.items():
        form.add_error(field, error)
    return _form_page(request, app, form)


def confirm_email(request, token, code):
    app = _application(token)
    try:
        actions.confirm_email(app, code)
    except ValidationError as e:
        return render(
            request,
            "portal/message.html",
            {"title": _("We could not confirm your email address"), "text": " ".join(e.messages)},
            status=400,
        )
    messages.success(request, _("Your email address %(email)s is confirmed.") % {"email": app.email})
    return redirect("portal-application", token=token)


def review(request, token):
    app = _application(token)
    if app.status != Application.Status.DRAFT:
        return redirect("portal-application", token=token)
    form, owed = actions.check(app)
    if not form.is_valid():
        return _form_page(request, app, form, checked=True)
    providers = payments.offered(app.municipality)
    pay = PayForm(posted(request), providers=providers)
    if request.method == "POST" and pay.is_valid():
        try:
            sent = actions.submit_application(app, provider=pay.cleaned_data["provider"])
        except ValidationError as e:
            _errors_into(pay, e)
        else:
            if sent.payment_status == Application.PaymentStatus.ONLINE:
                return redirect("payments-pay", token=token)  # the payments app's page, by its URL name
            return redirect("portal-application", token=token)
    return render(
        request,
        "portal/review.html",
        {
            "application": app,
            "owed": owed,
            "plain": plain_lines(owed, app.municipality, form.cleaned_data["altered"], form.cleaned_data["species"]),
            "pay": pay,
            "d": form.cleaned_data,
        },
    )


def found(request):
    form = LookupForm(request.GET if "q" in request.GET else None)
    chip = ChipForm(request.GET if "chip" in request.GET else None)
    context = {"form": form, "chip": chip, "aaha": AAHA_LOOKUP_URL}
    status = 200
    if form.is_bound and form.is_valid():
        lookup, results = actions.look_up_tag(
            query=form.cleaned_data["q"], client_address=client_address(request), user=request.user
        )
        context.update({"lookup": lookup, "results": results})
        status = 429 if lookup.refused else 200
    elif chip.is_bound and chip.is_valid():
        try:
            lookup, results = actions.look_up_chip(
                chip=chip.cleaned_data["chip"], client_address=client_address(request), user=request.user
            )
        except ValidationError as e:
            _errors_into(chip, e)
        else:
            context.update({"lookup": lookup, "results": results, "by_chip": True})
            status = 429 if lookup.refused else 200
    return render(request, "portal/found.html", context, status=status)


def pet(request, token):
    """The owner's page for their animal, reached by the signed link their renewal gives them:
    report it lost, found again, deceased or moved away; opt in to text messages, or out."""
    animal = Animal.objects.select_related("municipality").filter(pk=links.read_pet_token(token) or 0).first()
    if animal is None:
        raise Http404(_("This link is not valid."))
    speaks = language.for_person(request, _owner(animal))
    with translation.override(speaks):
        return language.keep(request, _pet_page(request, token, animal), speaks)


def _pet_page(request, token, animal):
    texts_form = None
    if request.method == "POST" and "texts" in request.POST:
        texts_form = text_consent.answer(request, animal)
        if texts_form is True:
            return redirect("portal-pet", token=token)
    reported = request.method == "POST" and texts_form is None
    form = AnimalReportForm(
        posted(request) if reported else None, kinds=open_kinds(animal), initial={"happened_on": today()}
    )
    if reported and form.is_valid():
        report = run_action(form, report_animal, animal, by_owner=True)
        if report:
            said = _("%(name)s: %(kind)s on %(date)s") % {
                "name": animal.name,
                "kind": str(report.get_kind_display()).lower(),
                "date": date_format(report.happened_on),
            }
            messages.success(
                request,
                _("Thank you. The %(municipality)s clerk's office now has: %(report)s.")
                % {"municipality": animal.municipality, "report": said},
            )
            return redirect("portal-pet", token=token)
    context = {"animal": animal, "form": form, "reports": animal.reports.select_related("animal")}
    context.update(text_consent.context(animal, texts_form))
    return render(request, "portal/pet.html", context, status=400 if texts_form and texts_form.errors else 200)


def unsubscribe(request, token):
    person = Person.objects.filter(pk=links.read_unsubscribe_token(token) or 0).first()
    if person is None:
        raise Http404(_("This link is not valid."))
    done = hasattr(person, "reminder_opt_out")
    if request.method == "POST" and not done:
        actions.opt_out_of_reminders(person)
        done = True
    return render(request, "portal/unsubscribe.html", {"done": done, "municipality": person.municipality})


# --- the clerk's review queue ---------------------------------------------------------------


@login_required
@exports(tables.queue)
def queue(request, slug, report):
    waiting, decided = report.pages(request)
    context = {"municipality": report.municipality, "waiting": waiting, "decided": decided}
    return render(request, "portal/queue.html", context)


@login_required
def review_application(request, pk):
    app = get_for_user(request.user, Application.objects.select_related("municipality", "animal", "person"), pk)
    can_decide = has_role(request.user, app.municipality_id, actions.CLERKS)
    data = posted(request) if can_decide else None
    decision = data.get("decision") if data else None
    approve = ApproveForm(
        data if decision == "approve" else None, initial={"amount": app.quoted_total, "method": "cash"}
    )
    reject = RejectForm(data if decision == "reject" else None)
    if decision == "approve" and approve.is_valid():
        payment = approve.payment() if app.payment_status != Application.PaymentStatus.PAID else None
        license = run_action(
            approve,
            actions.approve_application,
            app,
            acting_user=request.user,
            fields={"payment": payment, "tag_serial": approve.cleaned_data["tag_serial"]},
        )
        if license:
            messages.success(
                request, f"License {license.serial} issued; the resident has been emailed the certificate."
            )
            return redirect("license", pk=license.pk)
    if decision == "reject" and reject.is_valid():
        if run_action(reject, actions.reject_application, app, acting_user=request.user):
            messages.success(request, "Rejected; the reason has been emailed to the resident.")
            return redirect("application-queue", slug=app.municipality.slug)
    form, owed = actions.check(app)
    context = {
        "application": app,
        "form": form,
        "owed": owed,
        "d": app.data,
        "approve": approve,
        "reject": reject,
        "can_decide": can_decide and app.status == Application.Status.SUBMITTED,
        "on": today(),
        "held": held_documents(app, app.data.get("certificate_serial"), today()),
    }
    return render(request, "portal/review_application.html", context)


def _evidence(request, pk, attr):
    app = get_for_user(request.user, Application.objects, pk)
    field = getattr(app, attr)
    if not field:
        raise Http404("Nothing was uploaded.")
    what = {"rabies_certificate": "rabies certificate", "altered_evidence": "proof of spaying or neutering"}[attr]
    return stored_file_response(request, field, what, filename=field.name.rsplit("/", 1)[-1])


@login_required
def certificate_file(request, pk):
    return _evidence(request, pk, "rabies_certificate")


@login_required
def altered_file(request, pk):
    return _evidence(request, pk, "altered_evidence")


@login_required
def contact(request, slug):
    """The clerk's office as the portal and the found-dog page show it."""
    municipality = municipality_for(request, slug, (Role.CLERK, Role.ADMINISTRATOR))
    current = MunicipalityContact.objects.filter(municipality=municipality).first()
    form = ContactForm(posted(request), instance=current)
    if request.method == "POST" and form.is_valid():
        if run_action(form, actions.set_contact, acting_user=request.user, municipality=municipality):
            return redirect("municipality", slug=slug)
    return render(request, "registry/form.html", {"form": form, "title": f"Office hours and contact — {municipality}"})
