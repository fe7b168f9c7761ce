"""Forms for the kennel license pages: they parse; the actions validate."""

from functools import partial

from django import forms

from dogtag.lib.forms import DateInput, Form, ScopedForm
from dogtag.licensing.models import Inspection, KennelLicense
from dogtag.registry.models import Person, Premises
from dogtag.registry.pickers import with_pickers

# Feet, or square feet, to one decimal place, as KennelLicense keeps them.
Measure = partial(forms.DecimalField, max_digits=7, decimal_places=1, min_value=0)


class KennelApplicationForm(ScopedForm):
    owner = forms.ModelChoiceField(queryset=Person.objects.all(), label="Kennel owner")
    operator_name = forms.CharField(max_length=200, required=False, label="Kennel operator, if not the owner")
    premises = forms.ModelChoiceField(queryset=Premises.objects.all(), label="Kennel address")
    capacity = forms.IntegerField(min_value=0, label="Kennel capacity (dogs)")
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), required=False, label="Description of kennel and facility"
    )
    use = forms.ChoiceField(choices=KennelLicense.Use.choices, label="Personal or business use")
    signed_on = forms.DateField(widget=DateInput(), label="Owner's signature dated")
    license_year = forms.IntegerField(min_value=2000, max_value=2100)
    from_other_structures_ft = Measure(label="Feet to the nearest other residential or commercial structure")
    from_lot_lines_ft = Measure(label="Feet to the nearest lot line")
    kennel_sq_ft = Measure(max_digits=8, label="Kennel area (sq ft)")
    privacy_fence = forms.BooleanField(required=False, label="Surrounded by privacy fencing")

    def __init__(self, *args, municipality, **kwargs):
        super().__init__(*args, municipality=municipality, **kwargs)
        with_pickers(self, municipality, owner="people", premises="premises")


class InspectionForm(Form):
    inspector = forms.ChoiceField(choices=Inspection.Inspector.choices)
    inspector_name = forms.CharField(max_length=200)
    inspected_on = forms.DateField(widget=DateInput())
    findings = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), required=False, label="Health problems or violations (blank: none)"
    )


class CorrectionForm(Form):
    corrected_on = forms.DateField(widget=DateInput(), label="Corrected on")
