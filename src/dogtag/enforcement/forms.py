"""Forms parse the input; the actions validate it against the law, so the web, the API and any
command apply the same checks. Field names are the actions' keyword arguments."""

from django import forms

from dogtag.enforcement.models import (
    Appeal,
    Complaint,
    Declaration,
    EscapeNotification,
    Examination,
    Hearing,
    Impoundment,
    QuarantineOrder,
)
from dogtag.lib.contact_fields import PhoneField, TimeOfDayField
from dogtag.lib.forms import DateInput, Form
from dogtag.lib.forms import ScopedForm as _ScopedForm
from dogtag.registry.models import Animal, Person
from dogtag.registry.pickers import with_record_pickers


class ScopedForm(_ScopedForm):
    """Choices limited to the municipality, and the animal and the person (owner, person cited)
    type-ahead searches (never a list of every animal or person on record)."""

    def __init__(self, *args, municipality, **kwargs):
        super().__init__(*args, municipality=municipality, **kwargs)
        with_record_pickers(self, municipality, "animals", "people")


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"


def date_field(label=None, required=True):
    return forms.DateField(label=label, required=required, widget=DateInput())


def animal_field(required=True):
    return forms.ModelChoiceField(Animal.objects.all(), required=required)


def person_field(label=None, required=True):
    return forms.ModelChoiceField(Person.objects.all(), label=label, required=required)


class ComplaintForm(ScopedForm):
    kind = forms.ChoiceField(choices=Complaint.Kind.choices)
    formal_written = forms.BooleanField(label="Formal written complaint", required=False)
    sworn = forms.BooleanField(label="Signed statement made under oath", required=False)
    complainant_name = forms.CharField()
    complainant_address = forms.CharField(required=False)
    animal = animal_field(required=False)
    owner = person_field("Owner, if known", required=False)
    animal_description = forms.CharField(label="Description of the animal", required=False)
    observed_on = date_field()
    observed_time = TimeOfDayField(label="Approximate time", required=False)
    place = forms.CharField()
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    filed_on = date_field(required=False)


class NoticeStepForm(Form):
    police_notice_on = date_field("Written notice to the owner (received) on", required=False)
    observed_again_on = date_field("Seen at large again, or the noise went on, on", required=False)


class ImpoundForm(ScopedForm):
    animal = animal_field(required=False)
    owner = person_field("Owner, if known", required=False)
    description = forms.CharField(label="Description of the animal", required=False)
    impounded_on = date_field(required=False)
    found_at = forms.CharField()
    reason = forms.ChoiceField(choices=Impoundment.Reason.choices)
    officer_saw_or_heard = forms.BooleanField(label="I saw or heard the violation", required=False)
    sworn_complaint = forms.BooleanField(
        label="I hold a signed statement of a complaining witness under oath", required=False
    )
    bit_person = forms.BooleanField(label="The animal bit a person before impoundment", required=False)
    held_at = forms.CharField(label="Held at")


class NoticeForm(Form):
    notice_method = forms.ChoiceField(choices=Impoundment.Notice.choices)
    notice_on = date_field("Notice given (mailed, handed over or posted) on")
    notice_received_on = date_field("Received by the owner on", required=False)
    posted_at = forms.CharField(label="Posted at (the public places, separated by ;)", required=False)


class ReleaseForm(Form):
    released_on = date_field(required=False)
    proof_of_ownership = forms.BooleanField(required=False, initial=True)
    license_prepaid = forms.BooleanField(label="License prepaid", required=False)
    vaccination_prepaid = forms.BooleanField(label="Rabies vaccination prepaid", required=False)
    tagged = forms.BooleanField(label="Properly tagged", required=False)
    charges_paid = forms.BooleanField(label="Impoundment fees and charges paid", required=False)
    fee_paid = forms.DecimalField(label="Amount paid ($)", required=False, min_value=0, decimal_places=2)
    license_note = forms.CharField(label="License number or note", required=False)

    # Each condition's fields, offered only where the ordinance makes it a condition.
    BY_CONDITION = {
        "charges_paid": ("charges_paid",),
        "licensed_or_prepaid": ("license_prepaid",),
        "vaccinated_or_prepaid": ("vaccination_prepaid",),
        "tagged": ("tagged",),
        "proof_of_ownership": ("proof_of_ownership",),
    }

    def fit_to_law(self, answer) -> None:
        """Drop what this municipality's release does not ask: a "fees paid" tick and an amount
        where the ordinance sets no release fee or charges, a prepayment where no license or
        vaccination is a condition."""
        for condition, names in self.BY_CONDITION.items():
            if condition not in answer.conditions:
                for name in names:
                    self.fields.pop(name, None)
        if answer.fee is None and answer.total is None:  # no release fee in the ordinance: no amount to type
            self.fields.pop("fee_paid", None)


class DisposeForm(Form):
    disposition = forms.ChoiceField(choices=Impoundment.Disposition.choices[1:])
    disposed_on = date_field(required=False)
    disposed_to = forms.CharField(label="To (person, buyer or institution)", required=False)


class BiteForm(ScopedForm):
    animal = forms.ModelChoiceField(
        Animal.objects.all(), required=False, help_text="leave empty if the animal is unknown or a stray"
    )
    animal_description = forms.CharField(
        label="The animal, if unknown or a stray", required=False, help_text="kind, color, size, collar, where it went"
    )
    victim_name = forms.CharField()
    victim_address = forms.CharField(required=False)
    victim_phone = PhoneField(required=False)
    bitten_on = date_field()
    place = forms.CharField()
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    reported_by = forms.CharField(required=False)


class IdentifyForm(ScopedForm):
    animal = animal_field()


class QuarantineForm(Form):
    place = forms.ChoiceField(choices=QuarantineOrder.Place.choices)
    facility = forms.CharField(label="Facility or premises (name and address)")
    isolation_starts_on = date_field("Isolation starts on (if not the day of the bite)", required=False)


class ExposureForm(ScopedForm):
    animal = animal_field()
    exposed_on = date_field()
    facility = forms.CharField(label="Where the animal is confined")


class DeliveryForm(Form):
    delivered_at = forms.DateTimeField(widget=DateTimeInput())


class ExaminationForm(Form):
    which = forms.ChoiceField(choices=Examination.Which.choices)
    examined_on = date_field()
    signs_of_rabies = forms.BooleanField(required=False)
    findings = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}))


class ExtendForm(Form):
    extended_until = date_field()
    extension_reason = forms.CharField()


class QuarantineReleaseForm(Form):
    released_on = date_field()
    release_certificate = forms.CharField(label="Veterinarian's certificate (number, veterinarian)", required=False)
    revaccinated_on = date_field("Vaccinated (exposure) on", required=False)


class SymptomsForm(Form):
    symptoms_on = date_field()
    symptoms = forms.CharField()
    euthanized_on = date_field(required=False)
    lab_submitted_on = date_field("Specimen submitted to the laboratory on", required=False)
    laboratory = forms.CharField(required=False)


class LabResultForm(Form):
    lab_result = forms.ChoiceField(choices=QuarantineOrder.LabResult.choices[1:])
    lab_result_on = date_field()
    notified = forms.CharField(label="Notified (victim, physician, health department)")


class DistrictForm(Form):
    declared_on = date_field()
    ends_on = date_field()
    area = forms.CharField()
    ordered_by = forms.CharField()
    posted_at = forms.CharField(label="Notices posted at (separated by ;)", required=False)


def _choices(*keys):
    return [(k, k.replace("_", " ")) for k in keys]


INCIDENT_KINDS = _choices("threat", "attack", "injury", "bite_injury", "serious_injury", "killed")
VICTIMS = _choices("person", "domestic_animal", "livestock")
EXCUSES = _choices("defend_person", "protect_itself_or_young", "tormented", "defend_property_from_trespasser")
EARLIER_INCIDENTS = 2  # "on more than one occasion", "on two separate occasions": the finding's incident and two more


def incident_fields(prefix="", required=True) -> dict:
    """One incident's fields; the engine's incident keys, named `{prefix}{key}`."""
    blank = [] if required else [("", "—")]
    return {
        f"{prefix}occurred_on": date_field("Incident on", required=required),
        f"{prefix}incident_kind": forms.ChoiceField(
            label="What happened", choices=blank + INCIDENT_KINDS, required=required
        ),
        f"{prefix}victim": forms.ChoiceField(label="Victim", choices=blank + VICTIMS, required=required),
        f"{prefix}at_large": forms.BooleanField(label="At large", required=False),
        f"{prefix}off_owner_property": forms.BooleanField(label="Off the owner's property", required=False),
        f"{prefix}provoked": forms.BooleanField(label="Provoked", required=False),
        f"{prefix}excuse": forms.ChoiceField(label="Excuse", required=False, choices=[("", "—")] + EXCUSES),
    }


class DeclareForm(ScopedForm):
    """The incident the finding rests on, and up to two earlier ones (each counted by the engine
    only within the ordinance's window)."""

    animal = animal_field()
    determined_on = date_field(required=False)
    evidence = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), help_text="What the finding rests on")
    propensity_shown = forms.BooleanField(required=False)
    fighting = forms.BooleanField(label="Owned or trained for dog fighting", required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.groups = {"The finding": ["animal", "determined_on", "evidence", "propensity_shown", "fighting"]}
        incidents = {"The incident it rests on": incident_fields()}
        for n in range(1, EARLIER_INCIDENTS + 1):
            incidents[f"Earlier incident {n} (optional)"] = incident_fields(f"earlier{n}_", required=False)
        for legend, fields in incidents.items():
            self.fields.update(fields)
            self.groups[legend] = list(fields)

    def grouped(self):
        """(legend, bound fields) for the page's fieldsets."""
        return [(legend, [self[name] for name in names]) for legend, names in self.groups.items()]

    def _incident(self, d, prefix=""):
        keys = ("occurred_on", "incident_kind", "victim", "at_large", "off_owner_property", "provoked", "excuse")
        values = {key: d.pop(f"{prefix}{key}") for key in keys}
        if prefix and not values["occurred_on"]:
            return None
        for key in ("incident_kind", "victim"):
            if not values[key]:
                self.add_error(f"{prefix}{key}", "Say what happened in this incident, and to whom.")
        values["kind"], values["excuse"] = values.pop("incident_kind"), values["excuse"] or None
        return values

    def clean(self):
        """The incident fields become the engine's list of incidents, earliest first."""
        d = super().clean()
        if self.errors:
            return d
        earlier = [self._incident(d, f"earlier{n}_") for n in range(1, EARLIER_INCIDENTS + 1)]
        d["incidents"] = sorted((i for i in earlier if i), key=lambda i: i["occurred_on"]) + [self._incident(d)]
        return d


class DeclaredElsewhereForm(ScopedForm):
    animal = animal_field()
    classification = forms.ChoiceField(choices=Declaration.Classification.choices)
    declared_by = forms.CharField(label="Declared by (agency, municipality, county or state)")
    moved_in_on = date_field("Moved into the municipality on")
    conditions = forms.CharField(label="Restrictions imposed there", widget=forms.Textarea(attrs={"rows": 3}))
    notified_on = date_field("The owner notified the police and the clerk on", required=False)


class ServeForm(Form):
    service_method = forms.ChoiceField(choices=Declaration.Service.choices)
    served_on = date_field("Served in person on", required=False)
    mailed_on = date_field(required=False)
    received_on = date_field(required=False)
    refused = forms.BooleanField(label="Certified mail refused", required=False)
    posted_on = date_field("Posted (or published) on", required=False)


class HearingRequestForm(Form):
    requested_on = date_field("Written request received on")


class ScheduleHearingForm(Form):
    scheduled_on = date_field()
    time = forms.TimeField(label="Time", widget=forms.TimeInput(attrs={"type": "time"}))
    place = forms.CharField()
    interested_parties = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class DecideHearingForm(Form):
    held_on = date_field()
    outcome = forms.ChoiceField(choices=Hearing.Outcome.choices)
    classification = forms.ChoiceField(choices=[("", "—")] + Declaration.Classification.choices, required=False)
    findings = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}))
    comply_by = date_field("Compliance schedule: comply by", required=False)
    decision_sent_on = date_field(required=False)


class DecisionReceivedForm(Form):
    decision_received_on = date_field()


class AppealForm(Form):
    filed_on = date_field()
    to = forms.CharField(initial="Board of Appeals")
    stay_granted = forms.BooleanField(required=False)


class DecideAppealForm(Form):
    decided_on = date_field()
    outcome = forms.ChoiceField(choices=Appeal.Outcome.choices)


class ImposeForm(Form):
    written_notice_on = date_field("Written notification on", required=False)


class ProofForm(Form):
    proof = forms.CharField()
    proof_on = date_field()


class RemovalForm(Form):
    served_at = forms.DateTimeField(widget=DateTimeInput())


class WaiverForm(Form):
    applied_on = date_field()
    no_subsequent_violations = forms.BooleanField(required=False)
    complied_throughout = forms.BooleanField(required=False)
    behavior_program_proof = forms.CharField(label="Behavior modification programme: proof", required=False)


class EscapeNotificationForm(Form):
    event = forms.ChoiceField(label="What happened", choices=EscapeNotification.Event.choices)
    occurred_at = forms.DateTimeField(label="When it happened", widget=DateTimeInput())
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    notice_method = forms.ChoiceField(
        label="The owner or keeper notified the police", choices=EscapeNotification.Method.choices
    )
    notified_at = forms.DateTimeField(label="Notified the police at", widget=DateTimeInput(), required=False)
    immediate = forms.BooleanField(label="The notice was immediate (your finding)", required=False)


class ElsewhereNoticeForm(Form):
    notified_on = date_field("The owner notified the police and the clerk on")


class FailureToComplyForm(Form):
    found_on = date_field("Found on", required=False)
    failure = forms.CharField(
        label="What the owner failed to comply with",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="The requirement or condition, and how it was found",
    )


class CitationForm(ScopedForm):
    person = person_field()
    animal = animal_field(required=False)
    violation = forms.CharField(help_text="The section violated, as the ordinance numbers it, e.g. 98-6 or 2.14")
    description = forms.CharField()
    violated_on = date_field()
    days = forms.IntegerField(min_value=1, initial=1)
    forfeiture = forms.DecimalField(required=False, decimal_places=2, help_text="Blank: the minimum")
    costs = forms.DecimalField(required=False, decimal_places=2, initial=0)
    court_date = date_field(required=False)

    def clean_costs(self):
        return self.cleaned_data["costs"] or 0


class PaidForm(Form):
    paid_on = date_field()


class CureForm(Form):
    cured_on = date_field()
    cure_note = forms.CharField()


class ReasonForm(Form):
    reason = forms.CharField()
