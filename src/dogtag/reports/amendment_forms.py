"""The amendment pages' forms: they parse; the registry's actions validate against the law."""

from django import forms

from dogtag.lib.forms import DateInput, Form
from dogtag.registry.models import Amendment


class DraftForm(Form):
    kind = forms.ChoiceField(label="What it changes", choices=[("", "—"), *Amendment.Kind.choices], required=False)
    title = forms.CharField(label="Title", max_length=200, required=False)
    section = forms.CharField(label="Section amended", max_length=100, required=False, help_text="e.g. § 173-1")
    words = forms.CharField(
        label="The amendment's words",
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="As the Board would adopt them, the new figures written in them.",
    )
    effective_on = forms.DateField(label="Effective date", widget=DateInput(), required=False)
    altered = forms.DecimalField(
        label="License tax, spayed or neutered ($)", max_digits=9, decimal_places=2, min_value=0, required=False
    )
    unaltered = forms.DecimalField(
        label="License tax, not spayed or neutered ($)", max_digits=9, decimal_places=2, min_value=0, required=False
    )
    late_fee = forms.DecimalField(label="Late fee ($)", max_digits=9, decimal_places=2, min_value=0, required=False)
    more_than = forms.IntegerField(
        label="A kennel license is required for more than this many dogs", min_value=0, required=False
    )

    violation = forms.CharField(
        label="Violation whose forfeiture schedule it sets",
        max_length=60,
        required=False,
        help_text="The section violated, e.g. 115-5: the ordinance's schedule that prices it is replaced.",
    )
    minimum = forms.DecimalField(
        label="Forfeiture, not less than ($)", max_digits=9, decimal_places=2, min_value=0, required=False
    )
    maximum = forms.DecimalField(
        label="Forfeiture, not more than ($)", max_digits=9, decimal_places=2, min_value=0, required=False
    )

    FIGURES = ("altered", "unaltered", "late_fee", "more_than", "violation", "minimum", "maximum")

    def action_fields(self) -> dict:
        data = self.cleaned_data
        fields = {k: v for k, v in data.items() if k not in self.FIGURES}
        return {**fields, "figures": {k: data[k] for k in self.FIGURES if data.get(k) not in (None, "")}}


class PreviewForm(Form):
    year = forms.IntegerField(label="License year", min_value=1901, max_value=2199)


class AdoptForm(Form):
    resolution = forms.CharField(label="Resolution number", max_length=60, required=False)
    voted_on = forms.DateField(label="Date of the Board's vote", widget=DateInput(), required=False)


class VoidForm(Form):
    reason = forms.CharField(label="Why the amendment is voided", max_length=300)
