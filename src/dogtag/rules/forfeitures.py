"""Forfeitures: the amount or range for a violation and offense number.

State: ss. 174.042, 174.02, 95.21 (`statute`); each ordinance's own penalty sections
(`ordinance`): Benton § 1-3 (by reference), Webster §§ 98-6 and 98-20, River Hills § 2.14(8),
Sampson Section 9, Cedarburg § 7-1-25. A violation is named by the section violated; a
schedule applies to the sections it lists and their subsections.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache
from typing import Annotated, Literal

from pydantic import Field, model_validator

from .amounts import amount_at
from .catalogue import Facts, PackSet, PackValues, question
from .decision import Citation, Decision
from .packs import text_of_quote
from .schema import Amount, Dated, Provision, Strict, section
from .spans import choice_notes


class Tier(Strict):
    from_offense: int = Field(ge=1)
    minimum: Amount
    maximum: Amount


class Schedule(Provision):
    sections: list[str]
    tiers: list[Tier]
    after_notice_of_prior_bite: Tier | None = None
    plus_costs: bool = False
    imprisonment_days: int | None = None
    # "on default of payment" (the ordinances) or "and/or" (s. 95.21): whether jail is only for not paying
    imprisonment: Literal["on_default_of_payment", "fine_or_jail_or_both"] = "on_default_of_payment"
    each_day: Provision | None = None

    @model_validator(mode="after")
    def _ranges(self) -> Schedule:
        """A forfeiture "not less than" its minimum "nor more than" its maximum: on no day may the
        minimum a schedule sets exceed its maximum (a pack's own or an amendment's figures)."""
        for tier in [*self.tiers, *([self.after_notice_of_prior_bite] if self.after_notice_of_prior_bite else [])]:
            low, high = tier.minimum, tier.maximum
            if not (isinstance(low, Dated) and isinstance(high, Dated)):
                continue  # a fee-schedule amount is the clerk's, checked where it is entered
            for on in sorted({*low.starts, *high.starts}):
                lo, hi = low.at(on), high.at(on)
                if lo is not None and hi is not None and lo > hi:
                    raise ValueError(
                        f"the forfeiture for violation {', '.join(self.sections)} ({self.cite.section}) from offense "
                        f"{tier.from_offense} would be not less than ${lo} nor more than ${hi}: the minimum is above "
                        "the maximum"
                    )
        return self


class NoForfeiture(Provision):
    """Sections a person cannot be cited under: they charge a fee or bind an official; `choice` says why."""

    sections: list[str]


@section("forfeitures")
class ForfeituresSection(Strict):
    statute: list[Schedule] = []
    ordinance: list[Schedule] = []
    no_forfeiture: list[NoForfeiture] = []


def covers(section_: str, violation: str) -> bool:
    """`98-6` covers `98-6`, `98-6B` and `98-6(7)` but not `98-60` or `98-6 quarantine order`;
    `2.14` covers `2.14(6)[c]`."""
    if violation == section_:
        return True
    if not violation.startswith(section_):
        return False
    nxt = violation[len(section_)]
    return nxt in "([" or (nxt.isascii() and nxt.isalpha())


def _ecma(text: str) -> str:
    """`text` as a literal in a regex both Python and a JSON Schema (ECMA-262, `u`) read alike."""
    return "".join("\\" + c if c in "^$\\.*+?()[]{}|/" else c for c in text)


@cache
def violations(pack) -> PackValues | None:
    """The sections the pack's schedules (and `no_forfeiture`) name, and the pattern of their
    subsections (`covers`): what a violation may be."""
    s: ForfeituresSection | None = pack.forfeitures
    if s is None:
        return None
    rules = [*s.ordinance, *s.statute, *s.no_forfeiture]
    named = tuple(dict.fromkeys(x for r in rules for x in r.sections))
    sections = tuple(dict.fromkeys(c.section for r in rules for c in r.citations()))
    pattern = f"^(?:{'|'.join(_ecma(x) for x in named)})[(\\[A-Za-z].*$" if named else None
    return PackValues(named, "forfeitures", sections, pattern)


Violation = Annotated[
    str,
    PackSet(
        "Violation",
        violations,
        "a section a forfeiture schedule of the pack names (or a subsection of one)",
        closed=True,
        refusal="no forfeiture for violation {value!r} here",
        ruled_out=lambda pack, value: ruled_out(pack, value),
    ),
]


class ForfeitureFacts(Facts):
    violation: Violation
    offense_number: int = Field(default=1, ge=1)
    after_notice_of_prior_bite: bool = False
    days: int = Field(default=1, ge=1)  # days the violation occurred or continued


Penalty = Literal["fine", "fine_or_jail_or_both", "fine_with_jail_on_default"]


@dataclass(frozen=True)
class Forfeiture:
    """The range, `minimum` to `maximum` (null until a local amount is set), for one offense, and
    `total_minimum` to `total_maximum` over the `offenses_counted` (each day a separate offense
    where `each_day_separate`); `plus_costs`; the `penalty` and `imprisonment_days`. `applies`
    false: no forfeiture, `reason` says why (the section sets no offense, or the text sets none for
    this offense number)."""

    applies: bool
    minimum: Decimal | None = None
    maximum: Decimal | None = None
    plus_costs: bool | None = None
    imprisonment_days: int | None = None
    each_day_separate: bool | None = None
    penalty: Penalty | None = None
    offenses_counted: int | None = None
    total_minimum: Decimal | None = None
    total_maximum: Decimal | None = None
    reason: Literal["section_sets_no_offense", "no_forfeiture_for_offense_number"] | None = None


def _readings_that_place(pack, schedules: list[Schedule], violation: str) -> list[tuple[Schedule, bool]]:
    """The schedules whose reading decides whether `violation` falls to them (a reading whose other
    side sets `sections`), each with whether the schedule as written covers it: cited beside the
    schedule that prices it, with their status, so an answer that a ruling sent to another schedule
    (or to none) says who ruled, or that the reading is pending."""
    from .packs import load_pack

    base = load_pack(pack.id).forfeitures
    base_schedules = [*base.ordinance, *base.statute] if base is not None else []
    out = []
    for i, s in enumerate(schedules):
        other = s.reading.other if s.reading else None
        if other is None or "sections" not in other.set or i >= len(base_schedules):
            continue
        under_choice = any(covers(x, violation) for x in base_schedules[i].sections)
        under_other = any(covers(x, violation) for x in other.set["sections"])
        if under_choice != under_other:
            out.append((s, under_choice))
    return out


def ruled_out(pack, violation: str) -> str:
    """Why a violation a schedule as written prices is no longer one here: a ruling adopted the
    schedule's other reading, which leaves it out; the schedule's section and the ruling (who, its
    number and its day), or "" where no ruling did."""
    s: ForfeituresSection | None = pack.forfeitures
    schedules = [*s.ordinance, *s.statute] if s is not None else []
    return "; ".join(
        f"{r.cite.section} as written covers it, but {r.cite.citation.ruled_by} adopted the other reading,"
        " which leaves it out"
        for r, written in _readings_that_place(pack, schedules, violation)
        if written and r.cite.citation.ruled_by
    )


@question(
    "forfeiture",
    facts=ForfeitureFacts,
    value=Forfeiture,
    doc="The forfeiture (minimum and maximum) for a violation of a section and the offense number; "
    "court costs, imprisonment on default, and whether each day is a separate offense.",
)
def forfeiture(pack, facts: ForfeitureFacts, on: date, local) -> Decision:
    s: ForfeituresSection = pack.forfeitures
    schedules = list(s.ordinance) + list(s.statute)
    rule = next((r for r in schedules if any(covers(x, facts.violation) for x in r.sections)), None)
    none = next((r for r in s.no_forfeiture if any(covers(x, facts.violation) for x in r.sections)), None)
    if rule is None and none is not None:
        note = f"§ {facts.violation} sets no offense: {none.choice}"
        return Decision(Forfeiture(False, reason="section_sets_no_offense"), (none.cite.citation,), (note,))
    if rule is None:
        known = sorted({x for r in schedules for x in r.sections})
        raise ValueError(f"no forfeiture for violation {facts.violation!r} here; known: {', '.join(known)}")
    cites, notes, not_set = [rule.cite.citation], list(choice_notes(rule)), []
    for deciding, _ in _readings_that_place(pack, schedules, facts.violation):
        if deciding is rule:
            continue
        cites.append(deciding.cite.citation)
        section = deciding.cite.section
        notes.append(f"the reading of {section} decides which schedule prices violation {facts.violation}")
    tiers = [t for t in rule.tiers if t.from_offense <= facts.offense_number]
    if facts.after_notice_of_prior_bite and rule.after_notice_of_prior_bite is not None:
        tiers = [rule.after_notice_of_prior_bite]
    if not tiers:
        notes.append(f"the text sets no forfeiture for offense number {facts.offense_number}")
        return Decision(Forfeiture(False, reason="no_forfeiture_for_offense_number"), tuple(cites), tuple(notes))
    tier = max(tiers, key=lambda t: t.from_offense)
    low, missing_low = amount_at(tier.minimum, on, local, rule.cite.citation)
    high, missing_high = amount_at(tier.maximum, on, local, rule.cite.citation)
    not_set += [m for m in (missing_low, missing_high) if m]
    if rule.each_day is not None:
        cites.append(rule.each_day.cite.citation)
    each_day = rule.each_day is not None
    # "A separate offense shall be deemed committed on each day": over N days the range is N times one day's
    counted = facts.days if each_day else 1
    if rule.imprisonment_days is None:
        penalty = "fine"
    else:
        penalty = "fine_or_jail_or_both" if rule.imprisonment == "fine_or_jail_or_both" else "fine_with_jail_on_default"
    value = Forfeiture(
        True,
        minimum=low,
        maximum=high,
        plus_costs=rule.plus_costs,
        imprisonment_days=rule.imprisonment_days,
        each_day_separate=each_day,
        penalty=penalty,
        offenses_counted=counted,
        total_minimum=None if low is None else low * counted,
        total_maximum=None if high is None else high * counted,
    )
    if rule.cite.citation.pending and rule.reading is not None and rule.reading.other is not None:
        for alternative in (rule.reading.other, *rule.reading.further):
            priced = _priced_by(pack, alternative, facts.offense_number, on)
            if priced is not None:
                cites.append(priced[0])
                notes.append(priced[1])
    return Decision(value, tuple(cites), tuple(notes), tuple(not_set))


def _priced_by(pack, alternative, offense_number: int, on: date) -> tuple[Citation, str] | None:
    """What a reading of the schedule other than the one answering sets for this offense, where
    its `set` gives tiers and the words of its price (`cite`): the citation and a note of the range."""
    tiers, cite = alternative.set.get("tiers"), alternative.set.get("cite")
    if not tiers or not cite:
        return None
    found = [t for t in (Tier.model_validate(t) for t in tiers) if t.from_offense <= offense_number]
    citation = Citation(text_of_quote(pack, cite["quote"]), cite["section"], cite["quote"], cite.get("unconfirmed"))
    if not found:
        return (
            citation,
            f"on another reading, pending, {cite['section']} sets no forfeiture for offense {offense_number}",
        )
    tier = max(found, key=lambda t: t.from_offense)
    low, high = (a.at(on) if isinstance(a, Dated) else None for a in (tier.minimum, tier.maximum))
    costs = " plus court costs" if alternative.set.get("plus_costs", False) else ""
    price = "an amount the fee schedule sets" if low is None or high is None else f"${low} to ${high}{costs}"
    return citation, f"on another reading, pending, {cite['section']} prices offense {offense_number} at {price}"
