"""A pack's quote as a person reads it, on screens and in print. A quote is the ordinance's words
as Dogtag's transcription holds them (a test checks each against it), and that transcription has
lost two things the reader would otherwise take for Dogtag's own damage: the apostrophe of a
possessive ("the owner s consent") and the number of a section cited at the end of a cut-off
passage ("as specified in §"). Both are shown restored in square brackets, the usual mark of an
editor's insertion in a quotation, so the quote stays faithful and reads whole."""

import re

from django import template

register = template.Library()

# A letter, a space, then "s" ending the word: the possessive whose apostrophe was lost. Not "s."
# (the statutes' "s. 95.21"), which a full stop follows.
LOST_APOSTROPHE = re.compile(r"(?<=[A-Za-z]) s(?=[\s,;:]|$)")
# A section sign with no number after it, ending the quote: the transcription stops there.
CUT_REFERENCE = re.compile(r"(§+)\s*$")


@register.filter
def as_read(quote) -> str:
    """`owner s consent` as `owner[’]s consent`; `as specified in §` as `as specified in § […]`."""
    if not quote:
        return quote
    text = LOST_APOSTROPHE.sub("[’]s", str(quote))
    return CUT_REFERENCE.sub(r"\1 […]", text)
