"""The clerk's words for the names Dogtag keeps inside: `proof_of_ownership` is "proof of
ownership", an audit event's `hearing.decide` is "Hearing decided"."""

from datetime import date

from django import template

from dogtag.audit.display import action_label, words

register = template.Library()
register.filter("words", words)
register.filter("action_label", action_label)


@register.filter
def day(value):
    """A date, or the ISO date a stored decision keeps as JSON, as `March 1, 2027`."""
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value)
        except ValueError:
            return value
    if isinstance(value, date):
        return f"{value:%B} {value.day}, {value.year}"
    return value
