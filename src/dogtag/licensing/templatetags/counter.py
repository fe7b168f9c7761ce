"""The counter page's pieces without a template render each: the form's labels and inputs
(lib/widgets.py, the markup Django's widget templates write) and the "why?" of a figure."""

from functools import lru_cache

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from dogtag.lib.widgets import label_html, widget_html

register = template.Library()
register.filter("input", widget_html)
register.filter("label", label_html)


@lru_cache(maxsize=1024)
def _why(citations: tuple, language: str) -> str:  # the template translates: one rendering per language
    return mark_safe(render_to_string("dogtag/_why.html", {"citations": citations}))


@register.simple_tag
def why(citations):
    """`{% include "dogtag/_why.html" with citations=... %}`, rendered once for each set of
    citations: a rule pack's citations are frozen (rules.decision.Citation) and loaded once, so
    the counter's lines and warnings show the same few again and again. Citations kept on a
    record as data (dicts) are rendered each time."""
    try:
        return _why(tuple(citations or ()), get_language())
    except TypeError:  # not hashable: citations as JSON data
        return mark_safe(render_to_string("dogtag/_why.html", {"citations": citations}))


@receiver(setting_changed)
def _forget(setting, **kwargs):
    if setting == "TEMPLATES":
        _why.cache_clear()
