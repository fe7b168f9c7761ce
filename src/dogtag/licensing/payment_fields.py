"""The payment a clerk takes at the counter (method, amount, check or card reference), as form
fields: licensing's own forms and the portal's approve form (the clerk approving an online
application takes the payment there) both use them. Not part of licensing's web face, so the
portal, which sits above licensing, may import it."""

from django import forms

from dogtag.lib.forms import Form
from dogtag.licensing.models import Payment


class PaymentFields(Form):
    method = forms.ChoiceField(choices=Payment.Method.choices, required=False)
    amount = forms.DecimalField(max_digits=9, decimal_places=2, required=False, label="Amount received")
    check_number = forms.CharField(max_length=30, required=False)
    card_reference = forms.CharField(max_length=60, required=False, label="Card transaction reference")

    def payment(self):
        return {k: self.cleaned_data.get(k) for k in ("method", "amount", "check_number", "card_reference")}
