"""Form fields for what a person types to be reached or to say when: a telephone number, checked
as a number by `phonenumbers` (Google's libphonenumber), a ZIP code, a time of day. The models keep
text; the forms refuse what is not one, naming the field and what it takes."""

import phonenumbers
from django import forms
from django.core.exceptions import ValidationError
from django.utils import dateformat
from django.utils.translation import gettext_lazy as _

REGION = "US"  # a number typed without a country code is a United States number


def check_phone(value: str) -> None:
    try:
        number = phonenumbers.parse(value, REGION)
    except phonenumbers.NumberParseException:
        number = None
    if number is None or not phonenumbers.is_possible_number(number):
        raise ValidationError(
            _("Enter a telephone number, like 608-555-0142 (with its area code) or +44 20 7946 0958."), code="phone"
        )


class PhoneField(forms.CharField):
    default_validators = [check_phone]
    widget = forms.TextInput(attrs={"type": "tel", "autocomplete": "tel"})

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 30)
        super().__init__(**kwargs)


class ZipCodeField(forms.RegexField):
    widget = forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "postal-code"})
    default_error_messages = {"invalid": _("Enter a ZIP code of 5 digits, like 53803, or ZIP+4, like 53803-1234.")}

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 10)
        super().__init__(r"^\d{5}(-\d{4})?$", **kwargs)


class TimeOfDayField(forms.TimeField):
    """A time of day kept as text in words (`2:30 PM`): typed as 14:30 or 2:30 PM, or picked."""

    input_formats = ["%H:%M", "%H:%M:%S", "%I:%M %p", "%I:%M%p", "%I %p"]
    widget = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    default_error_messages = {"invalid": "Enter a time of day, like 2:30 PM or 14:30."}

    def clean(self, value):
        time = super().clean(value)
        return dateformat.time_format(time, "g:i A") if time else ""
