from django import forms

from dogtag.lib.contact_fields import PhoneField, ZipCodeField
from dogtag.lib.forms import ActionForm, DateInput, Form
from dogtag.lib.uploads import UploadField
from dogtag.registry.actions import ANIMAL_FIELDS, PERSON_FIELDS, PREMISES_FIELDS, VACCINATION_FIELDS
from dogtag.registry.models import Animal, Ownership, Person, Premises, RabiesVaccination, Ruling
from dogtag.registry.pickers import with_pickers


def _date_widgets(*names):
    return {name: DateInput() for name in names}


class PersonForm(ActionForm):
    class Meta:
        model = Person
        fields = PERSON_FIELDS
        field_classes = {"phone": PhoneField, "postal_code": ZipCodeField}


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
    owner = forms.ModelChoiceField(queryset=Person.objects.none(), required=False)
    owner_role = forms.ChoiceField(choices=Ownership.Role.choices, initial=Ownership.Role.OWNER)
    unowned = forms.BooleanField(
        required=False,
        label="No known owner (a stray, held at the shelter)",
        help_text="The owner who claims it later is added from the animal's page.",
    )

    class Meta(AnimalForm.Meta):
        fields = ("owner", "owner_role", "unowned", *(f for f in ANIMAL_FIELDS if f != "status"))

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
        field_classes = {"veterinarian_phone": PhoneField}


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
        with_pickers(self, municipality, to_person="people")
        for name, label in (questions or {}).items():
            self.fields[name] = yes_no(label)


class SealForm(Form):
    seal = UploadField(label="The seal (a PNG or JPEG image)")


class RulingForm(Form):
    """The municipality's ruling on one of its pack's readings. Every field is checked by the
    action, whose refusals name the field and the rule (a blank field included)."""

    reading = forms.CharField(label="Reading ruled on", required=False, widget=forms.Select)
    adopted = forms.CharField(
        label="Reading adopted", required=False, widget=forms.RadioSelect(choices=Ruling.Adopted.choices)
    )
    instrument = forms.CharField(
        label="Ruled by", required=False, widget=forms.Select(choices=[("", "—"), *Ruling.Instrument.choices])
    )
    attorney = forms.CharField(label="Attorney's name", max_length=200, required=False)
    number = forms.CharField(label="Opinion or resolution number", max_length=60, required=False)
    ruled_on = forms.DateField(label="Date ruled", widget=DateInput(), required=False)
    effective_on = forms.DateField(label="Effective date", widget=DateInput(), required=False)
    note = forms.CharField(label="Note", required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, readings, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reading"].widget.choices = [("", "—")] + [(r.id, f"{r.section} — {r.id}") for r in readings]


class VoidRulingForm(Form):
    reason = forms.CharField(label="Why the ruling is voided", max_length=300)
