from django import forms

from dogtag.lib.forms import DateInput, Form, ScopedForm
from dogtag.lib.uploads import UploadField
from dogtag.licensing import payment_fields
from dogtag.licensing.models import Payment
from dogtag.permits.models import HenPermit
from dogtag.registry.models import Person, Premises
from dogtag.registry.pickers import with_record_pickers


class PaymentFields(payment_fields.PaymentFields):
    """The fee, taken when the permit issues (nothing is taken for a refusal)."""

    method = forms.ChoiceField(choices=[("", "—"), *Payment.Method.choices], required=False, label="Paid by")
    PAYMENT = ("method", "amount", "check_number", "card_reference")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.PAYMENT:  # after the application's own fields
            self.fields[name] = self.fields.pop(name)

    def action_fields(self):
        data = {k: v for k, v in self.cleaned_data.items() if k not in self.PAYMENT}
        return {**data, "payment": self.payment()}


class HenPermitForm(PaymentFields, ScopedForm):
    applicant = forms.ModelChoiceField(Person.objects.all())
    premises = forms.ModelChoiceField(Premises.objects.all())
    applied_on = forms.DateField(required=False, widget=DateInput())
    zoning = forms.ChoiceField(choices=HenPermit.Zoning.choices)
    applicant_is_tenant = forms.BooleanField(label="The applicant is a tenant or occupant", required=False)
    owners_of_record = forms.CharField(label="All owners of record")
    all_owners_signed = forms.BooleanField(
        label="Signed (a tenant's: countersigned) by all owners of record", required=False
    )
    premises_registration = forms.CharField(label="Livestock Premises Registration number", required=False)
    site_plan = UploadField(required=False, help_text="a PDF or a photo (JPEG or PNG)")
    hens = forms.IntegerField(min_value=0)
    roosters = forms.IntegerField(min_value=0, initial=0)
    renewal_of = forms.ModelChoiceField(HenPermit.objects.filter(status=HenPermit.Status.ISSUED), required=False)
    changes = forms.BooleanField(label="Changes since the last permit (a new full application)", required=False)

    def __init__(self, *args, municipality, **kwargs):
        super().__init__(*args, municipality=municipality, **kwargs)
        # the applicant and the premises: type-ahead searches, never a list of every person or address
        with_record_pickers(self, municipality, "people", "premises")


class HenRenewForm(PaymentFields, Form):
    renewed_on = forms.DateField(required=False, widget=DateInput())


class HenRevokeForm(Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), help_text="what was found, when, by whom")
    revoked_on = forms.DateField(required=False, widget=DateInput())


def statement_signed_field():
    # Not required here either: the action refuses, naming the section from the pack.
    return forms.BooleanField(
        label="The owner signed the statement attesting to maintain, and not voluntarily cancel, "
        "the insurance for the permit year",
        required=False,
    )


class ViciousDogPermitForm(Form):
    # Not required here: the action refuses without it, naming the section from the pack.
    insurance = forms.CharField(label="Liability insurance or surety bond (insurer, policy, amount)", required=False)
    insurance_statement_signed = statement_signed_field()
    fee_paid = forms.DecimalField(label="Fee paid ($)", decimal_places=2, min_value=0)
    issued_on = forms.DateField(required=False, widget=DateInput())


class ViciousDogRenewForm(Form):
    insurance = forms.CharField(
        label="Liability insurance or surety bond (insurer, policy, amount), shown again", required=False
    )
    insurance_statement_signed = statement_signed_field()
    fee_paid = forms.DecimalField(label="Fee paid ($)", decimal_places=2, min_value=0)
    renewed_on = forms.DateField(required=False, widget=DateInput())
