"""A microchip number as a finder types it off a scanner: ISO 11784/11785 chips
read 15 digits; older chips (AVID, FECAVA) 9 or 10 letters and digits, often printed with
spaces, hyphens or asterisks (`012*345*678`)."""

import re

from django.core.exceptions import ValidationError

# The American Animal Hospital Association's Universal Pet Microchip Lookup: asks the
# registries of every chip maker, for chips Dogtag does not know.
AAHA_LOOKUP_URL = "https://www.petmicrochiplookup.org/"
ISO_LENGTH = 15
OLDER_LENGTHS = (9, 10)
_SEPARATORS = re.compile(r"[\s\-.*]")


def chip_number(text: str) -> str:
    """The number as Dogtag compares it, or a ValidationError on `chip` that says what a number is."""
    number = _SEPARATORS.sub("", text or "").upper()
    if not number:
        raise ValidationError({"chip": "Enter the microchip number the scanner shows."})
    if not number.isalnum():
        raise ValidationError(
            {"chip": f"“{text.strip()[:40]}” has characters no microchip number has: use its digits and letters only."}
        )
    if len(number) == ISO_LENGTH:
        if not number.isdigit():
            raise ValidationError({"chip": "A 15-character microchip number is digits only (0–9)."})
        return number
    if len(number) in OLDER_LENGTHS:
        return number
    raise ValidationError(
        {
            "chip": f"A microchip number is 15 digits, or 9 or 10 letters and digits on older chips; "
            f"“{text.strip()[:40]}” has {len(number)}."
        }
    )
