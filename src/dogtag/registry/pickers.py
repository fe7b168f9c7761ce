"""The type-ahead record pickers (htmx), shared by every app's forms: the registry's own, and
enforcement's and permits' (which may not import the registry's web face)."""

from django import forms
from django.urls import reverse

from dogtag.registry.models import Animal, Person, Premises

PICK_LABELS = {"people": lambda p: f"{p.name}, {p.street}", "premises": lambda p: p.street, "animals": str}
PICK_MODELS = {"people": Person, "premises": Premises, "animals": Animal}
PICK_HINTS = {
    "people": "Type a name or address",
    "premises": "Type an address",
    "animals": "Type a name or microchip",
}


class Picker(forms.Widget):
    """A type-ahead search for a person, premises or animal (htmx): a hidden field keeps the
    chosen record's id, the search box asks `registry.views.pick` for matches as the clerk
    types, and "New ..." opens the new-record form with what was typed. Scales to any
    register: it never lists every row."""

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
            new_url=reverse(new[0], args=[self.municipality.slug]) if new else "",
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
