"""A decision's "why?" (enforcement/_why.html) where a list repeats it: a page of cases shows the
law of each case's next deadline, and a few deadlines' law recurs on every page."""

import json
from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

register = template.Library()


@register.simple_tag
def why(cites, notes=()):
    """The "why?" of these citations and notes, rendered once for each distinct pair (and language)."""
    return _why(get_language(), json.dumps([cites or [], list(notes or [])], sort_keys=True, default=str))


@lru_cache(maxsize=256)
def _why(language: str, cites_and_notes: str) -> str:
    cites, notes = json.loads(cites_and_notes)
    return mark_safe(render_to_string("enforcement/_why.html", {"cites": cites, "notes": notes}))  # noqa: S308 (the template escapes)
