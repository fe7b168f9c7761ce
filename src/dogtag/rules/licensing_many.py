"""The license tax, late fee and license charges of many animals on one day (a renewal run, a
county report, an amendment's preview), as rules/licensing.py answers each one: the grouping and
the memos that make a batch fast live here, the law in rules/licensing.py. Every animal is
classified by the law's own functions (`exclusion`, `tax_for`, `classified`) and its Decision
composed by the law's own answers (`ANSWER`); animals classified alike share one Decision, made once."""

from __future__ import annotations

from bisect import bisect_left
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
    _excluded,
    _Memo,
    _terms_of,
    _year,
    classified,
    license_year_bounds,
)
from .packs import Pack

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


_BIRTHS_LIMIT = 20_000  # birth dates (and Decisions) kept per day and question: some fifty years of them


@lru_cache(maxsize=16)
def _births(day: _Day, question: str) -> tuple[_Memo, _Memo, date, tuple]:
    """A day's and question's Decisions, {classification: Decision}, and birth dates, {born: (the
    licensable-age day, the Decisions of an animal of the day's license year with no free license
    and not acquired during it, by altered or not)}, kept for the next batch of that day; the first
    birth date whose licensable-age day is not before the license year's first day, and the one
    entry of every birth date before it (not kept one by one: each decides as the day before the
    year does)."""
    answer, y = ANSWER[question], day.year
    decided = _Memo(lambda key: answer(day, *key), _BIRTHS_LIMIT)

    def born(due: date) -> tuple:
        return due, tuple(decided[classified(day, y, question, tax, due, None)] for tax in day.tax)

    births = _Memo(lambda b: born(day.terms.due(b)), _BIRTHS_LIMIT)
    return decided, births, _first_born_due_on_or_after(day.terms, y.start), born(y.start - ONE_DAY)


def _first_born_due_on_or_after(terms, start: date) -> date:
    """The first birth date whose licensable-age day is on or after `start` (date.min: every one),
    found by bisection over the calendar: licensable-age days never go backwards as birth dates go
    forwards (a month's later days that land past the end of a shorter month all land on its last
    day), and due(start) >= start."""
    born = range(date.min.toordinal(), start.toordinal() + 1)
    return date.fromordinal(born[bisect_left(born, True, key=lambda o: terms.due(date.fromordinal(o)) >= start)])


def clear_memos() -> None:
    """Forget everything worked out per pack, license year, day and birth date (a bench's "first
    batch of the day", a test that wants it); never needed while serving: the memos are bounded."""
    for memo in (license_year_bounds, _terms_of, _year, _day, _births):
        memo.cache_clear()


def decide_many(
    pack: Pack, animals: Iterable, on: date, local: LocalAmounts = NO_LOCAL_AMOUNTS, question: str = "license_charges"
) -> list[Decision]:
    """`question` (license_tax, late_fee or license_charges) for many animals on one day, in order,
    as the question asked of each alone. An animal is a row (a plain tuple of its facts in
    ROW_FACTS order, as a query's `values_list` gives it, holding the facts as the facts model
    would; not validated), a facts model, or any object with the facts' attributes, mixed or not.
    Decisions are shared between animals of one group and between batches of the same day: treat
    them as read-only."""
    if question not in ANSWER:
        raise KeyError(f"decide_many answers {', '.join(ANSWER)}, not {question!r}")
    day = _day(pack, local, on)
    y, taxes, due, tax_for = day.year, day.tax, day.terms.due, day.tax_for
    exclusion = day.terms.exclusion
    # Most animals are of a licensed species, in the day's license year, trained to nothing:
    # what their birth date decides is worked out once (one entry shared by every birth date that
    # came of age before the year began) with the Decisions of those not acquired during the year,
    # and per animal only its acquisition is classified. One Decision per classification.
    decided, births, early_before, early = _births(day, question)
    excluded_decided = _Memo(lambda excluded: _excluded(question, excluded))
    decisions = []
    append = decisions.append
    for a in animals:
        row = a if a.__class__ is tuple else _FACTS_OF_MODEL(a.__dict__) if a.__class__ is Animal else _FACTS(a)
        species, kept, license_year, born, altered, trained, acquired = row
        excluded = exclusion(species, kept)
        if excluded:
            append(excluded_decided[excluded])
        elif license_year or trained:
            a_year = _year(pack, license_year) if license_year else y
            append(decided[classified(day, a_year, question, tax_for(species, trained, altered), due(born), acquired)])
        else:
            born_due, not_acquired = early if born < early_before else births[born]
            if acquired is None:
                append(not_acquired[altered])
            else:
                append(decided[classified(day, y, question, taxes[altered], born_due, acquired)])
    return decisions


# The name callers use for rows of a query (the same function: it takes rows, models or objects).
decide_rows = decide_many
