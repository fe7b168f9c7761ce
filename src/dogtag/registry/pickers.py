"""The type-ahead record pickers (htmx), shared by every app's forms: the registry's own, and
enforcement's and permits' (which may not import the registry's web face)."""

from urllib.parse import urlencode, urlsplit

from django import forms
from django.http import QueryDict
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from dogtag.registry.models import Animal, Person, Premises

PICK_LABELS = {"people": lambda p: f"{p.name}, {p.street}", "premises": lambda p: p.street, "animals": str}
PICK_MODELS = {"people": Person, "premises": Premises, "animals": Animal}
PICK_HINTS = {
    "people": "Type a name or address",
    "premises": "Type an address",
    "animals": "Type a name or microchip",
}
# The field a new record's return names when the picker did not say (`?owner=` of the older links).
DEFAULT_FIELDS = {"people": "owner", "premises": "premises"}


class Picker(forms.Widget):
    """A type-ahead search for a person, premises or animal (htmx): a hidden field keeps the
    chosen record's id, the search box asks `registry.views.pick` for matches as the clerk
    types, and "New ..." opens the new-record form in place (an htmx fragment) with what was
    typed; without JavaScript it is a link to the form's own page, which comes back here with
    the record chosen (`chosen_on_return`). Scales to any register: it never lists every row."""

    template_name = "registry/_picker.html"
    NEW = {"people": ("person-new", "New person"), "premises": ("premises-new", "New premises")}

    def __init__(self, kind: str, municipality, attrs=None):
        super().__init__(attrs)
        self.kind, self.municipality = kind, municipality

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        chosen = (
            PICK_MODELS[self.kind].objects.filter(municipality=self.municipality, pk=value).first()
            if str(value or "").isdigit()
            else None
        )
        new = self.NEW.get(self.kind)
        context["widget"].update(
            url=reverse(f"pick-{self.kind}", args=[self.municipality.slug]),
            label=PICK_LABELS[self.kind](chosen) if chosen else "",
            hint=PICK_HINTS[self.kind],
            new_url=f"{reverse(new[0], args=[self.municipality.slug])}?{urlencode({'field': name})}" if new else "",
            new_label=new[1] if new else "",
        )
        return context


def with_pickers(form, municipality, **kinds):
    """Give the form's record fields a type-ahead `Picker` each: `owner="people"`."""
    for name, kind in kinds.items():
        form.fields[name].widget = Picker(kind, municipality)
    return form


def with_record_pickers(form, municipality, *kinds):
    """Give every choice of a record of these kinds (`"animals"`, `"people"`, `"premises"`) in
    the form a `Picker`, found by the field's model."""
    models = {PICK_MODELS[kind]: kind for kind in kinds}
    for field in form.fields.values():
        if isinstance(field, forms.ModelChoiceField) and field.queryset.model in models:
            field.widget = Picker(models[field.queryset.model], municipality)
    return form


def chosen_on_return(request, form):
    """Back from a picker's own-page "New person / New premises" (`?applicant=12`): the unbound
    form shows that record chosen in that picker."""
    if form.is_bound:
        return form
    for name, field in form.fields.items():
        if isinstance(field.widget, Picker) and request.GET.get(name, "").isdigit():
            form.initial[name] = request.GET[name]
    return form


def picked_field(request, kind) -> str:
    """The outer form's field a new record is for (`?field=`), a plain field name or the kind's default."""
    field = request.GET.get("field", "")
    return field if field.isidentifier() else DEFAULT_FIELDS[kind]


def back_url(request) -> str:
    """The form to return to with the new record chosen: `?next=`, else (a picker's plain link,
    no JavaScript) the page the link was on; only a path on this site."""
    back = request.GET.get("next", "")
    if not back and "field" in request.GET and request.method == "GET":
        referer = urlsplit(request.headers.get("Referer", ""))
        if referer.netloc == request.get_host() and referer.path != request.path:
            back = referer.path + (f"?{referer.query}" if referer.query else "")
    ok = back.startswith("/") and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()})
    return back if ok else ""


def with_choice(back: str, field: str, pk) -> str:
    """`back` with `?field=pk` (replacing an earlier choice of that field, keeping the rest)."""
    parts = urlsplit(back)
    query = QueryDict(parts.query, mutable=True)
    query[field] = str(pk)
    return f"{parts.path}?{query.urlencode()}"
