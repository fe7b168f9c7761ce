from datetime import date
from decimal import Decimal

from django import template

register = template.Library()


@register.filter
def shown(value):
    """A report cell on screen and on paper: $10.00, March 1, 2027, yes/no."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return f"${value:,.2f}"
    if isinstance(value, date):
        return f"{value:%B} {value.day}, {value.year}"
    return value


@register.filter
def numeric(value):
    return isinstance(value, (int, Decimal)) and not isinstance(value, bool)


@register.simple_tag
def with_format(query, fmt):
    """The current query string with `format=fmt` (so the CSV and PDF cover the same period)."""
    q = query.copy()
    q["format"] = fmt
    return q.urlencode()
