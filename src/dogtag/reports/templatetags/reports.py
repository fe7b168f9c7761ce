from decimal import Decimal

from django import template

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
