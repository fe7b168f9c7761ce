"""The form of an animal report (lost, found again, deceased, moved away): the clerk's at the
counter and the owner's on the portal parse the same fields; `actions.report_animal` decides."""

from django import forms
from django.utils.translation import gettext_lazy as _

from dogtag.lib.forms import DateInput, Form
from dogtag.licensing.actions.animal_reports import MADE_FROM
from dogtag.registry.models import AnimalReport


class AnimalReportForm(Form):
    kind = forms.ChoiceField(label=_("What happened"), choices=AnimalReport.Kind.choices, widget=forms.RadioSelect)
    happened_on = forms.DateField(label=_("On what date"), widget=DateInput())
    note = forms.CharField(
        label=_("Anything the office should know (optional)"),
        max_length=300,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("e.g. where the dog was last seen, or the new town you moved to"),
    )

    def __init__(self, *args, kinds, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(k, AnimalReport.Kind(k).label) for k in kinds]


def open_kinds(animal) -> list[str]:
    """The reports that can be made of the animal as it is recorded now."""
    return [kind for kind, made_from in MADE_FROM.items() if animal.status in made_from]
