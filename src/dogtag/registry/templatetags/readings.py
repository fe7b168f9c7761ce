"""The readings page's words: a pack's text with its ISO dates said as a person says them, and a
reading's example answers side by side."""

import re
from datetime import date

from django import template

from dogtag.lib.dates import shown

register = template.Library()
ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def _day(m: re.Match) -> str:
    try:
        return shown(date(int(m[1]), int(m[2]), int(m[3])))
    except ValueError:
        return m[0]


@register.filter
def dates_in_words(text) -> str:
    """`determined 2026-05-01` -> `determined May 1, 2026` (the packs write ISO dates)."""
    return ISO.sub(_day, "" if text is None else str(text))


@register.filter
def said(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')}: {said(v)}" for k, v in value.items()) or "—"
    if isinstance(value, list):
        return ", ".join(said(v) for v in value) or "none"
    return dates_in_words(value)


@register.filter
def side_by_side(answers) -> list[tuple[str, str, str]]:
    """(what, Dogtag's reading's answer, the other reading's) for each part of the example's
    answer, the parts that differ first."""
    choice, other = answers.get("choice"), answers.get("other")
    if choice is None:
        return []

    def parts(answer):
        if answer is None:
            return {}
        if answer.refused:
            return {"answer": f"refused: {answer.refused}", **answer.fee_schedule}
        value = answer.value
        return {**(value if isinstance(value, dict) else {"answer": value}), **answer.fee_schedule}

    a, b = parts(choice), parts(other)
    keys = list(dict.fromkeys([*a, *b]))
    rows = [(k.replace("_", " "), said(a.get(k)), said(b.get(k)) if other else "") for k in keys]
    return sorted(rows, key=lambda row: row[1] == row[2])
