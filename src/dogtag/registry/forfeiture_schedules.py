"""A new forfeiture schedule as an amendment: the ordinance's schedule that prices a violation
(`rules.forfeitures`: the first of the pack's ordinance schedules that covers it) replaced by one
setting a minimum and a maximum for every offense, dated from the amendment's effective date and
cited to its words. The schedule keeps its other terms (the sections it lists, court costs,
imprisonment on default, each day a separate offense). A violation the state statute prices
(s. 174.042, s. 174.02, s. 95.21) is the state's: an ordinance amendment does not change it."""

from __future__ import annotations

import copy
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError

from dogtag.rules import forfeitures


def schedules(pack, ordinance: list | None, figures: dict, section: str, words: str, effective_on: date) -> dict:
    """`{"<index>": schedule}`: the pack's ordinance schedule (of `ordinance`, as the pack writes
    them) that prices `figures["violation"]`, replaced, the others kept (rules/packs.py reads an
    amendment of one entry of a list so); a ValidationError on `violation` where none prices it."""
    violation = str(figures["violation"]).strip()
    ordinance = _plain(ordinance or [])  # JSON, as the amendment is stored: a date key as its ISO form
    i = next((n for n, s in enumerate(ordinance) if _prices(s, violation)), None)
    if i is None:
        raise ValidationError({"violation": _not_ours(pack, ordinance, violation)})
    schedule = {k: v for k, v in ordinance[i].items() if k not in ("choice", "reading", "unconfirmed")}
    on = effective_on.isoformat()
    tier = {"from_offense": 1, "minimum": {on: str(figures["minimum"])}, "maximum": {on: str(figures["maximum"])}}
    schedule["tiers"] = [tier]
    schedule.pop("after_notice_of_prior_bite", None)
    schedule["cite"] = {"section": section, "quote": " ".join(words.split())}
    return {str(i): schedule}


def _not_ours(pack, ordinance: list, violation: str) -> str:
    raw = pack.raw_sections.get("forfeitures") or {}
    state = next((s for s in raw.get("statute") or [] if _prices(s, violation)), None)
    if state is not None:
        return (
            f"Violation {violation} is priced by the state statute ({state['cite']['section']}), not by "
            f"{pack.name}'s ordinance: an amendment of the ordinance does not change it."
        )
    known = ", ".join(dict.fromkeys(x for s in ordinance for x in s["sections"]))
    return f"No forfeiture schedule of {pack.name}'s ordinance prices violation {violation!r}; they name: {known}."


def _plain(value):
    if isinstance(value, dict):
        return {(k.isoformat() if isinstance(k, date) else k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value.isoformat() if isinstance(value, date) else value


def _prices(schedule: dict, violation: str) -> bool:
    return any(forfeitures.covers(x, violation) for x in schedule["sections"])


def figures(entries: dict) -> dict[str, Decimal | str]:
    (schedule,) = entries.values()
    tier = schedule["tiers"][0]
    return {
        "violation": ", ".join(schedule["sections"]),
        "minimum": Decimal(next(iter(tier["minimum"].values()))),
        "maximum": Decimal(next(iter(tier["maximum"].values()))),
    }


def redated(provisions: dict, on: date) -> dict:
    """The amendment's provisions with its schedule's figures dated from `on` (a preview reads the
    amendment as in force for the whole year)."""
    out = copy.deepcopy(provisions)
    (schedule,) = out["forfeitures"]["ordinance"].values()
    tier = schedule["tiers"][0]
    for end in ("minimum", "maximum"):
        tier[end] = {on.isoformat(): next(iter(tier[end].values()))}
    return out
