"""Forms for the multiple-dog license pages: they parse; the actions validate."""

from django import forms

from dogtag.lib.forms import Form
from dogtag.licensing.models import Revocation
from dogtag.licensing.payment_fields import PaymentFields


class MultipleDogForm(PaymentFields):
    dogs = forms.IntegerField(min_value=1, label="Number of dogs to be kept")
    animals = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, label="The keeper's registered dogs it covers"
    )
    inspection_consent = forms.BooleanField(
        required=False,
        label="The keeper is told the application is deemed consent to inspection of the premises at any "
        "reasonable hour, and that a refusal revokes the license",
    )

    def __init__(self, *args, dogs=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["animals"].choices = [(str(d.pk), f"{d.name} ({d.breed or 'dog'})") for d in dogs]


class RevokeForm(Form):
    category = forms.ChoiceField(choices=Revocation.choices, label="Revoked for")
    reason = forms.CharField(max_length=250, label="What happened (date, official, findings)")
