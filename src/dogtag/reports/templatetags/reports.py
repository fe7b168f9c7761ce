from decimal import Decimal

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

from dogtag.lib.tables import shown

register = template.Library()


register.filter("shown", shown)  # a cell on screen and on paper: $10.00, March 1, 2027, yes/no


@register.filter
def numeric(value):
    return isinstance(value, (int, Decimal)) and not isinstance(value, bool)


@register.simple_tag
def with_format(query, fmt):
    """The current query string with `format=fmt` (so the CSV and PDF cover the same period)."""
    q = query.copy()
    q["format"] = fmt
    return q.urlencode()


WHOLE = 40  # characters: a phrase (a name, a street, a date) this long or shorter is never broken on paper


@register.filter
def on_paper(value):
    """A cell on paper, never wrapped mid-phrase: a date, an amount or a name kept whole; longer
    text broken only between its comma-separated parts (a street, then its city), each part whole
    unless it is a sentence longer than WHOLE."""
    text = str(shown(value))
    parts = text.split(", ") if isinstance(value, str) else [text]
    return mark_safe(
        ", ".join(
            format_html('<span class="whole">{}</span>', p) if len(p) <= WHOLE else conditional_escape(p) for p in parts
        )
    )
