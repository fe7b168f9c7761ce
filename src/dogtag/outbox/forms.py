"""The consent to text messages: the clerk's form (how the person consented) and the resident's."""

from django import forms
from django.utils.translation import gettext_lazy as _

from dogtag.lib.contact_fields import PhoneField
from dogtag.lib.forms import Form
from dogtag.outbox.models import TextConsent

# How the clerk may record a consent; a texted START or UNSTOP is the person's own reply.
CLERK_HOW = [(value, label) for value, label in TextConsent.How.choices if value != TextConsent.How.TEXT_REPLY]


class ClerkConsentForm(Form):
    phone = PhoneField(label="Mobile number", help_text="The number the person gave, with its area code.")
    how = forms.ChoiceField(label="How the person consented", choices=[("", "—"), *CLERK_HOW])


class ResidentConsentForm(Form):
    phone = PhoneField(label=_("Mobile number"), help_text=_("With its area code, like 608-555-0142."))
