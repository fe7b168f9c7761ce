from django import forms

from dogtag.lib.forms import ActionForm, DateInput, Form
from dogtag.registry.actions import ANIMAL_FIELDS, PERSON_FIELDS, PREMISES_FIELDS, VACCINATION_FIELDS
from dogtag.registry.models import Animal, Ownership, Person, Premises, RabiesVaccination


def _date_widgets(*names):
    return {name: DateInput() for name in names}


class PersonForm(ActionForm):
    class Meta:
        model = Person
        fields = PERSON_FIELDS


class NewPersonForm(PersonForm):
    confirm_not_duplicate = forms.BooleanField(
        required=False, label="Add anyway: this is someone else than the person already on record"
    )


class PremisesForm(ActionForm):
    class Meta:
        model = Premises
        fields = PREMISES_FIELDS


class AnimalForm(ActionForm):
    class Meta:
        model = Animal
        fields = ANIMAL_FIELDS
        widgets = _date_widgets("birth_date", "acquired_on", "brought_in_on")

    def __init__(self, *args, municipality, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["premises"].queryset = Premises.objects.filter(municipality=municipality)


class NewAnimalForm(AnimalForm):
    owner = forms.ModelChoiceField(queryset=Person.objects.none())
    owner_role = forms.ChoiceField(choices=Ownership.Role.choices, initial=Ownership.Role.OWNER)

    class Meta(AnimalForm.Meta):
        fields = ("owner", "owner_role", *(f for f in ANIMAL_FIELDS if f != "status"))

    def __init__(self, *args, municipality, **kwargs):
        super().__init__(*args, municipality=municipality, **kwargs)
        self.fields["owner"].queryset = Person.objects.filter(municipality=municipality)
        with_pickers(self, municipality, owner="people", premises="premises")


class OwnershipForm(Form):
    person = forms.ModelChoiceField(queryset=Person.objects.none())
    role = forms.ChoiceField(choices=Ownership.Role.choices)
    started_on = forms.DateField(widget=DateInput())

    def __init__(self, *args, municipality, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["person"].queryset = Person.objects.filter(municipality=municipality)
        with_pickers(self, municipality, person="people")


class EndOwnershipForm(Form):
    ended_on = forms.DateField(widget=DateInput())


class VaccinationForm(ActionForm):
    class Meta:
        model = RabiesVaccination
        fields = VACCINATION_FIELDS
        widgets = _date_widgets("vaccinated_on", "expires_on")


class VoidForm(Form):
    reason = forms.CharField(max_length=300)


class DuplicateTagForm(Form):
    tag_number = forms.CharField(max_length=50, label="New rabies tag number")
    issued_on = forms.DateField(widget=DateInput())


def yes_no(label):
    return forms.TypedChoiceField(
        label=label,
        choices=[("", "—"), ("yes", "Yes"), ("no", "No")],
        coerce=lambda v: v == "yes",
        empty_value=None,
        required=False,
    )


class TransferForm(Form):
    """`questions`: what the law asks about this animal's transfer (registry.actions.transfer_questions)."""

    to_person = forms.ModelChoiceField(queryset=Person.objects.none(), label="New owner")
    on = forms.DateField(widget=DateInput(), label="Owner from")

    def __init__(self, *args, municipality, questions=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to_person"].queryset = Person.objects.filter(municipality=municipality)
        for name, label in (questions or {}).items():
            self.fields[name] = yes_no(label)


class SealForm(Form):
    seal = forms.FileField(label="The seal (a PNG or JPEG image)")


PICK_LABELS = {"people": lambda p: f"{p.name}, {p.street}", "premises": lambda p: p.street, "animals": str}


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
        from django.urls import reverse

        context = super().get_context(name, value, attrs)
        model = {"people": Person, "premises": Premises, "animals": Animal}[self.kind]
        chosen = (
            model.objects.filter(municipality=self.municipality, pk=value).first()
            if str(value or "").isdigit()
            else None
        )
        new = self.NEW.get(self.kind)
        context["widget"].update(
            url=reverse(f"pick-{self.kind}", args=[self.municipality.slug]),
            label=PICK_LABELS[self.kind](chosen) if chosen else "",
            new_url=reverse(new[0], args=[self.municipality.slug]) if new else "",
            new_label=new[1] if new else "",
        )
        return context


def with_pickers(form, municipality, **kinds):
    """Give the form's record fields a type-ahead `Picker` each: `owner="people"`."""
    for name, kind in kinds.items():
        form.fields[name].widget = Picker(kind, municipality)
    return form
