"""An amendment drafted as an overlay on the municipality's rule pack: the provision it replaces,
built from the pack's own (its other terms kept), with the new figure dated from the amendment's
effective date and cited to the amendment's words; validated as the pack is, against every
amendment already adopted (the state's limits refused with their section, e.g. s. 174.05)."""

from __future__ import annotations

import copy
from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError

from dogtag.registry import forfeiture_schedules
from dogtag.rules import packs

# What each kind amends: (pack section, provision key) and the form fields its figures come from.
AMENDS = {
    "license_tax": ("licensing", "tax"),
    "late_fee": ("licensing", "late_fee"),
    "kennel_threshold": ("kennel", "required"),
    "forfeiture_schedule": ("forfeitures", "ordinance"),
}
FIGURES = {
    "license_tax": ("altered", "unaltered"),
    "late_fee": ("late_fee",),
    "kennel_threshold": ("more_than",),
    "forfeiture_schedule": ("minimum", "maximum", "violation"),
}


def provisions(pack: packs.Pack, kind: str, figures: dict, section: str, words: str, effective_on: date) -> dict:
    """The overlay for `kind`: `{pack section: {key: provision}}`. The amended provision keeps the
    pack's other terms (a late fee's April 1, a kennel's age) and reads no pending reading of the
    words it replaces (its `choice` and `reading` go with them)."""
    name, key = AMENDS[kind]
    current = (pack.raw_sections.get(name) or {}).get(key)
    if kind == "forfeiture_schedule":
        return {name: {key: forfeiture_schedules.schedules(pack, current, figures, section, words, effective_on)}}
    if current is None:
        raise ValidationError({"kind": f"{pack.name}'s rule pack has no {name}.{key} to amend."})
    provision = {k: v for k, v in copy.deepcopy(current).items() if k not in ("choice", "reading", "unconfirmed")}
    on = effective_on.isoformat()
    if kind == "license_tax":
        provision["altered"] = {on: str(figures["altered"])}
        provision["unaltered"] = {on: str(figures["unaltered"])}
    elif kind == "late_fee":
        provision["amount"] = {on: str(figures["late_fee"])}
    else:
        provision["more_than"] = int(figures["more_than"])
    provision["cite"] = {"section": section, "quote": " ".join(words.split())}
    return {name: {key: provision}}


def figures_of(kind: str, amendment_provisions: dict) -> dict[str, Decimal | int | str]:
    """The figures an amendment sets, by form field (for its page and its preview)."""
    name, key = AMENDS[kind]
    provision = amendment_provisions[name][key]
    if kind == "forfeiture_schedule":
        return forfeiture_schedules.figures(provision)
    if kind == "license_tax":
        return {f: Decimal(next(iter(provision[f].values()))) for f in ("altered", "unaltered")}
    if kind == "late_fee":
        return {"late_fee": Decimal(next(iter(provision["amount"].values())))}
    return {"more_than": provision["more_than"]}


def validated(pack_id: str, adopted: list[packs.Amendment], amendment: packs.Amendment, kind: str) -> packs.Pack:
    """The pack amended by every adopted amendment and `amendment`, or a ValidationError on the
    figures' field naming each reason and its section."""
    try:
        return packs.amended(pack_id, [*adopted, amendment])
    except packs.PackError as e:
        errors: dict[str, list[str]] = {}
        for _, path, reason in e.errors:
            field = "words" if reason.startswith("quote") else _field(kind, path)
            reason = reason.removeprefix("Value error, ")  # a schema check's own words (rules/forfeitures.py)
            errors.setdefault(field, []).append(f"The amended law would not stand: {reason}")
        raise ValidationError(errors) from None


def _field(kind: str, path: str) -> str:
    """The form field a pack error's path names (`licensing.tax.unaltered.2027-03-01`: unaltered)."""
    parts = set(path.split("."))
    return next((f for f in FIGURES.get(kind, ()) if f in parts), FIGURES.get(kind, ("__all__",))[0])


def fee_schedule_keys(pack: packs.Pack, kind: str, amendment_provisions: dict | None = None) -> tuple[str, ...]:
    """The fee-schedule amounts (`{local: key}`) of the provision `kind` amends: an adopted amendment
    sets its figures itself, so from its effective date the fee schedule's entries for them no
    longer apply (Benton § 115-3A(3)'s tax "as prescribed in § 173-1", amended by resolution)."""
    name, key = AMENDS[kind]
    current = (pack.raw_sections.get(name) or {}).get(key)
    if kind == "forfeiture_schedule":  # the schedule it replaces, less what the others still read
        entries = {int(i) for i in (amendment_provisions or {}).get(name, {}).get(key, {})}
        kept = set(_locals([s for i, s in enumerate(current or []) if i not in entries]))
        replaced = [s for i, s in enumerate(current or []) if i in entries]
        return tuple(k for k in dict.fromkeys(_locals(replaced)) if k not in kept)
    return tuple(dict.fromkeys(_locals(current)))


def _locals(value) -> list[str]:
    if isinstance(value, dict):
        own = [value["local"]] if isinstance(value.get("local"), str) else []
        return own + [k for v in value.values() for k in _locals(v)]
    if isinstance(value, list):
        return [k for v in value for k in _locals(v)]
    return []
