from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from dogtag.accounts.scope import get_for_user
from dogtag.audit.models import AuditEvent
from dogtag.lib.dates import today
from dogtag.lib.replica import reads_from_replica
from dogtag.lib.stored_files import stored_file_response
from dogtag.lib.tables import exports
from dogtag.lib.web import action_page, municipality_for, posted, run_action, to
from dogtag.registry import actions, forms, pickers, tables
from dogtag.registry.models import (
    Animal,
    AnimalReport,
    Municipality,
    Ownership,
    Person,
    Premises,
    RabiesVaccination,
)

SEARCH_PAGE = 50


@login_required
@reads_from_replica
@exports(tables.search)
def search(request, report):
    context = {"q": report.q, "report_pages": report.pages(request, SEARCH_PAGE)}
    template = "registry/search_results.html" if request.headers.get("HX-Request") else "registry/search.html"
    return render(request, template, context)


@login_required
def person_new(request, slug):
    municipality = municipality_for(request, slug, actions.REGISTRARS)
    return _new_record(request, municipality, "people", forms.NewPersonForm, actions.create_person)


@login_required
def person(request, pk):
    person = get_for_user(request.user, Person.objects, pk)
    ownerships = person.ownerships.select_related("animal")
    return render(
        request,
        "registry/person.html",
        {
            "person": person,
            "ownerships": ownerships,
            "reports": AnimalReport.objects.filter(animal__ownerships__person=person)
            .select_related("animal")
            .distinct(),
            "events": AuditEvent.objects.for_object(person),
        },
    )


@login_required
def person_edit(request, pk):
    person = get_for_user(request.user, Person.objects, pk, actions.REGISTRARS)
    form = forms.PersonForm(posted(request), instance=person)
    return action_page(request, form, actions.update_person, person, title=f"Edit {person}", done=to("person", pk))


@login_required
def premises_new(request, slug):
    municipality = municipality_for(request, slug, actions.REGISTRARS)
    return _new_record(request, municipality, "premises", forms.PremisesForm, actions.create_premises)


# "New person / New premises": what a picker's search box held becomes the first field's value.
NEW_RECORDS = {"people": ("person", "name", "person"), "premises": ("premises", "street", "premises")}


def _new_record(request, municipality, kind, form_class, action):
    """A new person or premises: on its own page (back to the picker's form with it chosen, if
    it came from one), or in place in the picker (an htmx fragment, `_new_inline`)."""
    shown_at, typed_field, noun = NEW_RECORDS[kind]
    field = pickers.picked_field(request, kind)
    typed = request.GET.get(f"{field}_q", request.GET.get(typed_field, "")).strip()
    if request.headers.get("HX-Request"):
        return _new_inline(request, municipality, kind, form_class, action, field, typed)
    back = pickers.back_url(request)
    if back and "next" not in request.GET:  # the picker's plain link: keep the way back in the address
        return redirect(f"{request.path}?{urlencode({**request.GET.dict(), 'next': back})}")
    return action_page(
        request,
        form_class(posted(request), initial={typed_field: typed}),
        action,
        municipality=municipality,
        title=f"New {noun} — {municipality}",
        done=(lambda record: pickers.with_choice(back, field, record.pk)) if back else to(shown_at),
    )


def _new_inline(request, municipality, kind, form_class, action, field, typed):
    """The picker's new-record form in place: its fields carry the prefix `new-<field>-` (the
    outer form's own fields are posted along and ignored); on success the picker comes back
    whole with the record chosen (HX-Retarget), everything else on the page as it was."""
    shown_at, typed_field, noun = NEW_RECORDS[kind]
    form = form_class(
        posted(request), prefix=f"new-{field}", initial={typed_field: typed}, use_required_attribute=False
    )
    if request.method == "POST" and form.is_valid():
        record = run_action(form, action, acting_user=request.user, municipality=municipality)
        if record:
            picker = pickers.Picker(kind, municipality).render(field, record.pk, attrs={"id": f"id_{field}"})
            return HttpResponse(picker, headers={"HX-Retarget": "closest [data-picker]", "HX-Reswap": "outerHTML"})
    url = f"{request.path}?{urlencode({'field': field})}"
    return render(
        request, "registry/_new_inline.html", {"form": form, "url": url, "noun": noun, "title": f"New {noun}"}
    )


@login_required
def premises(request, pk):
    premises = get_for_user(request.user, Premises.objects, pk)
    return render(
        request,
        "registry/premises.html",
        {"premises": premises, "animals": premises.animal_set.all(), "events": AuditEvent.objects.for_object(premises)},
    )


@login_required
def premises_edit(request, pk):
    premises = get_for_user(request.user, Premises.objects, pk, actions.REGISTRARS)
    form = forms.PremisesForm(posted(request), instance=premises)
    return action_page(
        request, form, actions.update_premises, premises, title=f"Edit {premises}", done=to("premises", pk)
    )


@login_required
def animal_new(request, slug):
    municipality = municipality_for(request, slug, actions.REGISTRARS)
    form = pickers.chosen_on_return(request, forms.NewAnimalForm(posted(request), municipality=municipality))
    return action_page(
        request,
        form,
        actions.register_animal,
        municipality=municipality,
        title=f"Register an animal — {municipality}",
        done=to("animal"),
    )


@login_required
def animal(request, pk):
    animal = get_for_user(request.user, Animal.objects.select_related("municipality", "premises"), pk)
    ownerships = list(animal.ownerships.select_related("person"))
    context = {
        "animal": animal,
        "ownerships": ownerships,
        "unowned": all(o.ended_on is not None for o in ownerships),
        "vaccinations": animal.vaccinations.prefetch_related("duplicate_tags"),
        "licenses": animal.licenses.all(),
        "reports": animal.reports.select_related("animal"),
        "events": AuditEvent.objects.filter(
            Q(object_type="registry.animal", object_id=str(pk))
            | Q(
                object_type="registry.ownership",
                object_id__in=[str(o) for o in animal.ownerships.values_list("pk", flat=True)],
            )
        ).select_related("actor"),
    }
    return render(request, "registry/animal.html", context)


@login_required
def animal_edit(request, pk):
    animal = get_for_user(request.user, Animal.objects, pk, actions.REGISTRARS)
    form = forms.AnimalForm(posted(request), instance=animal, municipality=animal.municipality)
    return action_page(request, form, actions.update_animal, animal, title=f"Edit {animal}", done=to("animal", pk))


@login_required
def ownership_new(request, pk):
    animal = get_for_user(request.user, Animal.objects, pk, actions.REGISTRARS)
    form = pickers.chosen_on_return(request, forms.OwnershipForm(posted(request), municipality=animal.municipality))
    return action_page(
        request,
        form,
        actions.add_ownership,
        animal,
        title=f"Add an owner, keeper or harborer of {animal}",
        done=to("animal", pk),
    )


@login_required
def animal_transfer(request, pk):
    animal = get_for_user(request.user, Animal.objects, pk, actions.REGISTRARS)
    questions = actions.transfer_questions(animal, today())
    form = pickers.chosen_on_return(
        request, forms.TransferForm(posted(request), municipality=animal.municipality, questions=questions)
    )
    return action_page(
        request, form, actions.transfer_animal, animal, title=f"Transfer {animal} to a new owner", done=to("animal", pk)
    )


@login_required
def ownership_end(request, pk):
    ownership = get_for_user(request.user, Ownership.objects.select_related("animal", "person"), pk, actions.REGISTRARS)
    form = forms.EndOwnershipForm(posted(request))
    return action_page(
        request,
        form,
        actions.end_ownership,
        ownership,
        title=f"End {ownership.person} as {ownership.get_role_display().lower()} of {ownership.animal}",
        done=to("animal", ownership.animal_id),
    )


@login_required
def vaccination_new(request, pk):
    animal = get_for_user(request.user, Animal.objects, pk, actions.CERTIFIERS)
    form = forms.VaccinationForm(posted(request), initial=actions.certificate_defaults(animal))
    return action_page(
        request,
        form,
        actions.record_vaccination,
        animal,
        title=f"Rabies certificate for {animal}",
        done=to("vaccination"),
    )


@login_required
def vaccination(request, pk):
    vaccination = get_for_user(request.user, RabiesVaccination.objects.select_related("animal"), pk)
    return render(
        request,
        "registry/vaccination.html",
        {
            "vaccination": vaccination,
            "events": AuditEvent.objects.for_object(vaccination).select_related("actor"),
        },
    )


@login_required
def vaccination_edit(request, pk):
    vaccination = get_for_user(request.user, RabiesVaccination.objects, pk, actions.CERTIFIERS)
    form = forms.VaccinationForm(posted(request), instance=vaccination)
    return action_page(
        request, form, actions.update_vaccination, vaccination, title=f"Edit {vaccination}", done=to("vaccination", pk)
    )


@login_required
def vaccination_void(request, pk):
    vaccination = get_for_user(request.user, RabiesVaccination.objects, pk, actions.CERTIFIERS)
    form = forms.VoidForm(posted(request))
    return action_page(
        request,
        form,
        actions.void_vaccination,
        vaccination,
        title=f"Void {vaccination}",
        done=to("vaccination", pk),
        submit="Void",
        destructive=True,
    )


@login_required
def vaccination_duplicate_tag(request, pk):
    vaccination = get_for_user(request.user, RabiesVaccination.objects, pk, actions.CERTIFIERS)
    form = forms.DuplicateTagForm(posted(request))
    return action_page(
        request,
        form,
        actions.record_duplicate_rabies_tag,
        vaccination,
        title=f"Duplicate rabies tag for {vaccination}",
        done=to("vaccination", pk),
    )


SEAL_TYPES = {".png": "image/png", ".jpg": "image/jpeg"}


@login_required
def seal(request, slug):
    """The clerk uploads the municipality's seal (PNG or JPEG), shown on its screens and documents."""
    municipality = municipality_for(request, slug, actions.CLERKS_AND_ADMINISTRATORS)
    form = forms.SealForm(posted(request), request.FILES or None)
    if request.method == "POST" and form.is_valid():
        fields = {"upload": form.cleaned_data["seal"]}
        done = run_action(form, actions.set_seal, municipality, acting_user=request.user, fields=fields)
        if done:
            return redirect("municipality", slug=slug)
    return render(request, "registry/seal.html", {"form": form, "municipality": municipality})


def seal_image(request, slug):
    """The seal as an image: public, as a seal is (the portal shows it too)."""
    municipality = get_object_or_404(Municipality, slug=slug)
    if not municipality.seal:
        raise Http404("No seal uploaded.")
    extension = "." + municipality.seal.name.rsplit(".", 1)[-1]
    response = stored_file_response(
        request, municipality.seal, "seal", content_type=SEAL_TYPES.get(extension, "image/png")
    )
    if response.status_code == 200:
        response["Cache-Control"] = "public, max-age=3600"
    return response


PICK_LIMIT = 10
PICKS = ("people", "premises", "animals")


@login_required
def pick(request, slug, kind):
    """The picker's matches for what was typed (any `*_q` or `q` parameter): at most ten, in one
    query, scoped to the municipality."""
    municipality = municipality_for(request, slug)
    q = next((v for k, v in request.GET.items() if k == "q" or k.endswith("_q")), "").strip()
    rows = []
    if len(q) >= 2:
        if kind == "people":
            found = Person.objects.filter(municipality=municipality).filter(
                Q(name__icontains=q) | Q(street__icontains=q)
            )
            rows = [
                (p.pk, f"{p.name}, {p.street}", f"{p.street}, {p.city}") for p in found.order_by("name")[:PICK_LIMIT]
            ]
        elif kind == "premises":
            found = Premises.objects.filter(municipality=municipality, street__icontains=q).order_by("street")
            rows = [(p.pk, p.street, p.get_use_display()) for p in found[:PICK_LIMIT]]
        elif kind == "animals":
            found = Animal.objects.filter(municipality=municipality).filter(
                Q(name__icontains=q) | Q(microchip__icontains=q)
            )
            rows = [(a.pk, str(a), a.breed) for a in found.order_by("name")[:PICK_LIMIT]]
    return render(request, "registry/_picks.html", {"rows": rows, "q": q})


@login_required
def readings_page(request, slug):
    """The administrator's page of the readings the municipality's pack leaves to its ruling:
    both readings, their answers on the pack's example, the records each governs; and the form
    that records a ruling."""
    from dogtag.registry import readings
    from dogtag.registry.models import Ruling

    municipality = municipality_for(request, slug, actions.ADMINISTRATORS)
    on = today()
    listed = readings.for_page(municipality, on)
    form = forms.RulingForm(posted(request), readings=listed, initial={"reading": request.GET.get("reading", "")})
    if request.method == "POST" and form.is_valid():
        done = run_action(form, actions.record_ruling, municipality, acting_user=request.user)
        if done:
            return redirect(f"{reverse('readings', args=[slug])}#ruling-{done.pk}")
    rulings = list(Ruling.objects.filter(municipality=municipality).select_related("recorded_by"))
    in_force = {}
    for r in rulings:  # newest effective date first (Meta.ordering), per reading
        if r.voided_at is None:
            in_force.setdefault(r.reading_id, []).append(r)
    for reading in listed:
        mine = in_force.get(reading.id, [])
        reading.ruling = next((r for r in mine if r.effective_on <= on), None)
        reading.coming = [r for r in mine if r.effective_on > on]
    # Those whose other reading the pack encodes first: a ruling on them can change an answer.
    pending = sorted((r for r in listed if r.ruling is None and r.ruled_by is None), key=lambda r: not r.has_other)
    ruled = [r for r in listed if r.ruling is not None or r.ruled_by is not None]
    context = {
        "municipality": municipality,
        "pending": pending,
        "ruled": ruled,
        "rulings": rulings,
        "form": form,
        "on": on,
        "status": 400 if request.method == "POST" else 200,
    }
    return render(request, "registry/readings.html", context, status=context["status"])


@login_required
def ruling_void(request, pk):
    from dogtag.registry.models import Ruling

    ruling = get_for_user(request.user, Ruling.objects, pk, actions.ADMINISTRATORS)
    form = forms.VoidRulingForm(posted(request))
    return action_page(
        request,
        form,
        actions.void_ruling,
        ruling,
        title=f"Void the ruling: {ruling}",
        submit="Void",
        destructive=True,
        done=lambda r: f"{reverse('readings', args=[r.municipality.slug])}#ruling-{r.pk}",
    )
