"""The license tax, late fee and license charges of many animals on one day (a renewal run, a
county report, an amendment's preview), as rules/licensing.py answers each one: the grouping and
the memos that make a batch fast live here, the law in rules/licensing.py. Every animal is
classified by the law's own functions (`_trigger`, `_half`, `classified`) and its Decision
composed by the law's own answers (`ANSWER`); animals that agree on every fact the answer turns on
share one Decision, made once."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable
from datetime import date
from functools import lru_cache
from operator import attrgetter, itemgetter

from .amounts import NO_LOCAL_AMOUNTS, LocalAmounts
from .dates import ONE_DAY
from .decision import Decision
from .licensing import (
    ANSWER,
    Animal,
    _Day,
    _day,
    _half,
    _PackTerms,
    _terms_of,
    _trigger,
    _year,
    classified,
    late_fee,
    license_charges,
    license_tax,
    license_year_bounds,
)
from .packs import Pack

_QUESTIONS = {"license_tax": license_tax, "late_fee": late_fee, "license_charges": license_charges}
# The facts of an animal as decide_rows reads them, in this order: a row of a query
# (`values_list(*ROW_FACTS)` over columns or annotations of these names) or a tuple built so.
ROW_FACTS = (
    "species",
    "kept_only_for_education_or_science",
    "license_year",
    "born_on",
    "altered",
    "trained_to",
    "acquired_on",
)
_FACTS, _FACTS_OF_MODEL = attrgetter(*ROW_FACTS), itemgetter(*ROW_FACTS)
_Excluded = namedtuple("_Excluded", "species kept_only_for_education_or_science")


class _Born:
    """What a birth date decides for an animal of the day's license year with no free license,
    for one question on one day: the licensable-age day, the tax (halved or not) by altered or
    not, the group key of an animal not acquired during the year and, once made, its Decision
    (by altered or not). `due` None: one shared by every birth date whose licensable-age day
    falls before the license year began (`_Births.early`)."""

    __slots__ = ("due", "half", "not_acquired", "decided")

    def __init__(self, day: _Day, on: date, question: str, born: date | None):
        terms, y = day.terms, day.year
        wants_tax, wants_late = question != "late_fee", question != "license_tax"
        taxes = day.tax if wants_tax else (None, None)
        # born None: of licensable age before the year began, as the day before it is.
        self.due = None if born is None else terms.due(born)
        due = self.due or y.start - ONE_DAY
        half = _half(y, due)
        self.half = tuple(half if t is not None and t.halved is not None else None for t in taxes)
        trigger = _late_group(_trigger(terms, y, due, None), on, question) if wants_late else None
        self.not_acquired = ((taxes[0], self.half[0], trigger), (taxes[1], self.half[1], trigger))
        self.decided = [None, None]


def _late_group(trigger, on: date, question: str):
    """The trigger as it tells animals apart: none when the day is not past its last day, except
    for late_fee, whose value names the last day."""
    return None if trigger is not None and on <= trigger[1] and question != "late_fee" else trigger


_BIRTHS_LIMIT = 20_000  # birth dates kept per day and question: some fifty years of them


class _Births(dict):
    """A day's and question's birth dates, {born: _Born}, kept for the next batch of that day;
    beside them `early`, the one _Born of every birth date before `early_before` (the first whose
    licensable-age day is not before the license year's first day), which are not kept one by one.

    Licensable-age days never go backwards as birth dates go forwards (a month's later days that
    land past the end of a shorter month all land on its last day), so `early_before` is found by
    bisection over the calendar, a few dozen date sums a day."""

    __slots__ = ("early_before", "early")

    def __init__(self, day: _Day, question: str):
        super().__init__()
        self.early_before = _first_born_due_on_or_after(day.terms, day.year.start)
        self.early = _Born(day, day.on, question, None)


def _first_born_due_on_or_after(terms: _PackTerms, start: date) -> date:
    """The first birth date whose licensable-age day is on or after `start` (date.min: every one)."""
    due, first, hi = terms.due, date.min.toordinal(), start.toordinal()  # due(start) >= start
    step = 1
    lo = hi - step
    while True:  # widen until a birth date's licensable-age day falls before `start`
        if lo <= first:
            lo = first
            if due(date.fromordinal(lo)) >= start:
                return date.min
            break
        if due(date.fromordinal(lo)) < start:
            break
        hi, step = lo, step * 2
        lo = hi - step
    while hi - lo > 1:  # due(lo) < start <= due(hi)
        mid = (lo + hi) // 2
        if due(date.fromordinal(mid)) < start:
            lo = mid
        else:
            hi = mid
    return date.fromordinal(hi)


@lru_cache(maxsize=16)
def _births(day: _Day, question: str) -> _Births:
    """The batch's birth dates for a day and question, kept for the next batch of that day."""
    return _Births(day, question)


def clear_memos() -> None:
    """Forget everything worked out per pack, license year, day and birth date (a bench's "first
    batch of the day", a test that wants it); never needed while serving: the memos are bounded."""
    for memo in (license_year_bounds, _terms_of, _year, _day, _births):
        memo.cache_clear()


# A row as the one-by-one questions read it (by attribute), for the first animal of each group.
_Row = namedtuple("_Row", ROW_FACTS)


def decide_rows(
    pack: Pack,
    rows: Iterable[tuple],
    on: date,
    local: LocalAmounts = NO_LOCAL_AMOUNTS,
    question: str = "license_charges",
) -> list[Decision]:
    """`question` (license_tax, late_fee or license_charges) for many animals on one day, in order,
    each a plain tuple of its facts in ROW_FACTS order (a query's `values_list` rows), holding the
    facts as the facts model would; not validated. Decisions are shared between animals of one
    group and between batches of the same day: treat them as read-only."""
    return decide_many(pack, rows, on, local, question)


def decide_many(
    pack: Pack, animals: Iterable, on: date, local: LocalAmounts = NO_LOCAL_AMOUNTS, question: str = "license_charges"
) -> list[Decision]:
    """decide_rows for animals given as rows (plain tuples in ROW_FACTS order), facts models, or
    any object with the facts' attributes (a database row as a namedtuple, say), mixed or not."""
    try:
        decide = _QUESTIONS[question]
    except KeyError:
        raise KeyError(f"decide_many answers {', '.join(_QUESTIONS)}, not {question!r}") from None
    day = _day(pack, local, on)
    terms = day.terms
    wants_tax, wants_late = question != "late_fee", question != "license_tax"
    deadline_matters = question == "late_fee"  # its value carries the last day even when not late
    # Most animals are of a licensed species, in the day's license year, with no free license:
    # what their birth date decides is worked out once (`_Born`; one shared by every birth date
    # that came of age before the year began) with the Decision of those not acquired during the
    # year, and per animal only its acquisition is compared, by the law's own `_trigger`.
    licensed, not_required, free = terms.species, terms.not_required is not None, terms.free
    taxes = day.tax if wants_tax else (None, None)
    y = day.year
    before_start = y.start - ONE_DAY
    births = _births(day, question)
    known, early_before, early = births.get, births.early_before, births.early
    answer = ANSWER[question]
    groups: dict[tuple, Decision] = {}
    decisions = []
    append = decisions.append
    for a in animals:
        row = a if a.__class__ is tuple else _FACTS_OF_MODEL(a.__dict__) if a.__class__ is Animal else _FACTS(a)
        species, kept, license_year, born, altered, trained, acquired = row
        if species not in licensed or (not_required and kept):
            key = terms.exclusion(_Excluded(species, kept))
        elif license_year or (trained and species == "dog" and trained in free):
            key = _group_of(pack, day, on, question, row)
        else:
            if born < early_before:
                b = early
            else:
                b = known(born)
                if b is None:
                    if len(births) > _BIRTHS_LIMIT:
                        births.clear()
                    b = births[born] = _Born(day, on, question, born)
            if acquired is None:
                decision = b.decided[altered]
                if decision is None:
                    key = b.not_acquired[altered]
                    decision = groups.get(key)
                    if decision is None:
                        decision = groups[key] = answer(day, y, *key)
                    b.decided[altered] = decision
                append(decision)
                continue
            # b.due None: of licensable age before the year began, as the day before it is.
            trigger = _trigger(terms, y, b.due or before_start, acquired) if wants_late else None
            if trigger is not None and on <= trigger[1] and not deadline_matters:
                trigger = None
            key = (taxes[altered], b.half[altered], trigger)
            decision = groups.get(key)
            if decision is None:
                decision = groups[key] = answer(day, y, *key)
            append(decision)
            continue
        decision = groups.get(key)
        if decision is None:
            decision = groups[key] = decide(pack, _Row._make(row), on, local)
        append(decision)
    return decisions


def _group_of(pack: Pack, day: _Day, on: date, question: str, facts: tuple) -> tuple:
    """decide_many's group of an animal with a license year of its own or a free license: the
    law's classification (`classified`), its trigger as it tells animals apart."""
    a = _Row._make(facts)
    y = _year(pack, a.license_year) if a.license_year else day.year
    tax, half, trigger = classified(day, y, a, question)
    return tax, half, _late_group(trigger, on, question)
