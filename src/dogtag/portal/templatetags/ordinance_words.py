"""The annotated ordinance's own words around the adopted text, in the reader's language."""

from django import template
from django.utils.translation import gettext

from dogtag.rules.coverage import OPENING

register = template.Library()


@register.filter
def section_number(number: str) -> str:
    """`§ 115-2` as the ordinance numbers it; the text before its first heading, in the reader's words."""
    return gettext("(before the first heading)") if number == OPENING else number
