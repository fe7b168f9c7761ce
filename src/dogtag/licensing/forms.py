from django import forms

from dogtag.lib.forms import DateInput, Form
from dogtag.licensing.models import Payment
from dogtag.licensing.payment_fields import PaymentFields


class IssueForm(PaymentFields):
    tag_serial = forms.IntegerField(
        required=False, min_value=1, label="Tag in hand (type or scan; blank: next in stock)"
    )


class FeeForm(Form):
    key = forms.ChoiceField(label="Which amount")
    amount = forms.DecimalField(max_digits=9, decimal_places=2, min_value=0)
    effective_on = forms.DateField(widget=DateInput(), label="In force from")
    authority = forms.CharField(max_length=200, label="Set by (resolution or section)")

    def __init__(self, *args, keys, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["key"].choices = keys


class TagLotForm(Form):
    license_year = forms.IntegerField(min_value=2000, max_value=2100)
    first_serial = forms.IntegerField(min_value=1)
    last_serial = forms.IntegerField(min_value=1)
    received_on = forms.DateField(widget=DateInput())


class ReplaceTagForm(PaymentFields):
    tag_serial = forms.IntegerField(required=False, min_value=1, label="New tag in hand (blank: next in stock)")


class ReasonForm(Form):
    reason = forms.CharField(max_length=300)


class VoidForm(ReasonForm):
    """Void a license; if money was taken, say whether and how it is handed back."""

    refund_method = forms.ChoiceField(
        choices=[("", "No refund: the payment was recorded in error"), *Payment.Method.choices],
        required=False,
        label="Refund",
    )
    refund_amount = forms.DecimalField(max_digits=9, decimal_places=2, required=False, label="Amount refunded")
    refund_check_number = forms.CharField(max_length=30, required=False, label="Refund check number")

    def void_fields(self):
        """The action's fields: the reason, and the refund if one was chosen (never without a payment)."""
        data = self.cleaned_data
        refund = {key: data.get(f"refund_{key}") for key in ("method", "amount", "check_number")}
        return {"reason": data["reason"], "refund": refund if refund["method"] else None}
