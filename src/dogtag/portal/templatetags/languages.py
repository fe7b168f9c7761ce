from django import template
from django.utils.translation import get_language_info

from dogtag.portal.language import offered

register = template.Library()


@register.simple_tag
def offered_languages():
    """The languages a resident may choose, each in its own words (Español, not Spanish)."""
    return [get_language_info(code) for code in offered()]
