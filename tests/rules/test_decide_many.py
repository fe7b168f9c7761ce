"""The batch entry points answer exactly what the one-by-one questions answer, for every pack.

`decide_rows` (rows of facts, as a query gives them) and `decide_many` (facts models, or any
object with their attributes) share one Decision among animals that agree on the facts that
matter; these properties draw whole herds of random animals (both species, every training,
exclusions, acquisitions on both sides of every threshold, license years given and not) and
compare each answer with the question asked alone.
"""

from __future__ import annotations

from datetime import date, timedelta
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dogtag.rules import load_pack
from dogtag.rules.amounts import LocalAmounts
from dogtag.rules.dates import plus
from dogtag.rules.licensing import (
    Animal,
    late_fee,
    licensable_on,
    license_charges,
    license_tax,
    license_year_bounds,
)
from dogtag.rules.licensing_many import ROW_FACTS, _first_born_due_on_or_after, clear_memos, decide_many, decide_rows
from dogtag.rules.schema import Period

PACKS = ["wi", "wi-benton", "wi-webster", "wi-river-hills", "wi-sampson", "wi-cedarburg"]
ONE_BY_ONE = {"license_tax": license_tax, "late_fee": late_fee, "license_charges": license_charges}
money = st.decimals(min_value=0, max_value=60, places=2).map(str)


def row_of(a: Animal) -> tuple:
    """The animal as a query's row of its facts, with dates of its own (as a database returns)."""
    copy = {f: (date.fromordinal(v.toordinal()) if isinstance(v, date) else v) for f, v in a}
    return tuple(copy[f] for f in ROW_FACTS)


@st.composite
def animals(draw, on: date):
    # Now and then one of a few ages, so that animals share a birth date and differ in the rest.
    born = on - timedelta(days=draw(st.one_of(st.integers(-200, 365 * 6), st.sampled_from([-30, 100, 200, 400]))))
    acquired = draw(st.one_of(st.none(), st.integers(0, 900).map(lambda days: born + timedelta(days=days))))
    return Animal(
        species=draw(st.sampled_from(["dog", "dog", "dog", "cat"])),
        born_on=born,
        altered=draw(st.booleans()),
        acquired_on=acquired,
        trained_to=draw(st.sampled_from([None, None, "lead_blind_or_deaf", "support_mobility", "service"])),
        kept_only_for_education_or_science=draw(st.sampled_from([False, False, False, True])),
        license_year=draw(st.sampled_from([None, None, None, on.year - 1, on.year, on.year + 1])),
    )


@st.composite
def herds(draw):
    on = draw(st.dates(min_value=date(2019, 1, 1), max_value=date(2028, 12, 31)))
    local = LocalAmounts.of(
        {
            key: {"2018-01-01": draw(money), **({"2024-07-01": draw(money)} if draw(st.booleans()) else {})}
            for key in ("license_tax.altered", "license_tax.unaltered", "late_fee")
            if draw(st.integers(0, 4))  # now and then a fee nobody has set
        }
    )
    herd = draw(st.lists(animals(on), min_size=1, max_size=30))
    # Repeat some animals so groups really form.
    herd += draw(st.lists(st.sampled_from(herd), max_size=30))
    return draw(st.sampled_from(PACKS)), on, local, herd


@pytest.mark.parametrize("question", sorted(ONE_BY_ONE))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=herds())
def test_it_answers_as_one_by_one(question, case):
    pack_id, on, local, herd = case
    pack = load_pack(pack_id)
    ask = ONE_BY_ONE[question]
    one_by_one = [ask(pack, a, on, local) for a in herd]
    assert decide_many(pack, herd, on, local, question) == one_by_one
    assert decide_rows(pack, [row_of(a) for a in herd], on, local, question) == one_by_one


@pytest.mark.parametrize("question", sorted(ONE_BY_ONE))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=herds(), data=st.data())
def test_rows_and_models_mixed_and_in_batches_of_one_day_answer_as_one_by_one(question, case, data):
    """Batches of the same day share what they have worked out: a later batch (here part of the
    herd with altered and not swapped, then all of it, rows and models mixed) still answers as
    the question asked alone."""
    pack_id, on, local, herd = case
    pack = load_pack(pack_id)
    ask = ONE_BY_ONE[question]
    cut = data.draw(st.integers(0, len(herd)))
    swapped = [a.model_copy(update={"altered": not a.altered}) for a in herd[:cut]]
    assert decide_rows(pack, [row_of(a) for a in swapped], on, local, question) == [
        ask(pack, a, on, local) for a in swapped
    ]
    mixed = [row_of(a) if data.draw(st.booleans()) else a for a in herd]
    assert decide_many(pack, mixed, on, local, question) == [ask(pack, a, on, local) for a in herd]


def test_it_computes_each_group_once():
    pack = load_pack("wi-benton")
    on = date(2026, 5, 2)
    local = LocalAmounts.of(
        {
            "license_tax.altered": {"2020-01-01": "5.00"},
            "license_tax.unaltered": {"2020-01-01": "10.00"},
            "late_fee": {"2020-01-01": "5.00"},
        }
    )
    renewing = [Animal(born_on=date(2015 + i % 8, 1 + i % 12, 1 + i % 28), altered=i % 2 == 0) for i in range(1000)]
    decisions = decide_many(pack, renewing, on, local)
    # Owned before the year began and licensed after March 31: two groups, altered or not.
    assert len({id(d) for d in decisions}) == 2
    assert {d.value.total for d in decisions} == {
        license_charges(pack, renewing[0], on, local).value.total,
        license_charges(pack, renewing[1], on, local).value.total,
    }


def test_it_takes_any_object_with_the_facts():
    from collections import namedtuple

    Row = namedtuple(
        "Row", "species born_on altered acquired_on trained_to kept_only_for_education_or_science license_year"
    )
    pack, on = load_pack("wi-cedarburg"), date(2026, 8, 3)
    row = Row("cat", date(2026, 2, 20), False, None, None, False, None)
    facts = Animal(species="cat", born_on=date(2026, 2, 20))
    assert decide_many(pack, [row], on) == [license_charges(pack, facts, on, LocalAmounts.of({}))]


def test_the_rows_hold_the_facts_models_fields():
    assert set(ROW_FACTS) == set(Animal.model_fields)


def test_a_row_is_its_facts_in_order():
    pack, on = load_pack("wi-webster"), date(2026, 4, 20)
    # A service dog owned since before the license year, and a cat kept for science.
    rows = [
        ("dog", False, None, date(2019, 3, 1), False, "service", None),
        ("cat", True, None, date(2025, 10, 2), True, None, None),
    ]
    facts = [Animal(**dict(zip(ROW_FACTS, row, strict=True))) for row in rows]
    assert decide_rows(pack, rows, on) == [license_charges(pack, a, on, LocalAmounts.of({})) for a in facts]


def test_it_names_the_questions_it_answers():
    with pytest.raises(KeyError, match="license_charges"):
        decide_many(load_pack("wi"), [], date(2026, 1, 1), question="rabies_current")
    with pytest.raises(KeyError, match="license_charges"):
        decide_rows(load_pack("wi"), [], date(2026, 1, 1), question="rabies_current")


# Days at the edges of the license year and of its thresholds (a leap day among them).
EDGE_DAYS = [
    date(2025, 1, 1),
    date(2025, 3, 31),
    date(2025, 4, 1),
    date(2024, 2, 29),
    date(2026, 7, 2),
    date(2027, 12, 31),
]
EDGE_LOCAL = LocalAmounts.of(
    {
        "license_tax.altered": {"2018-01-01": "5.00"},
        "license_tax.unaltered": {"2018-01-01": "11.00"},
        "late_fee": {"2018-01-01": "7.50"},
    }
)


@pytest.mark.parametrize("question", sorted(ONE_BY_ONE))
@pytest.mark.parametrize("on", EDGE_DAYS, ids=str)
def test_a_first_batch_answers_as_one_by_one_for_every_birth_date_around_the_year(question, on):
    """Every birth date from well before the licensable age reaches the license year to past its
    end, on days at the year's edges, in every pack, with nothing kept from an earlier batch
    (the first batch of the day) and then again (a later one): each answer is the question's
    asked alone. Acquired never, before the year, on its first day, on the day asked, or at
    licensable age (a day before and after too)."""
    ask = ONE_BY_ONE[question]
    for pack_id in PACKS:
        pack = load_pack(pack_id)
        start, end = license_year_bounds(pack, on.year)  # every pack's year is the calendar year
        herd = []
        born = start - timedelta(days=190)
        while born <= end + timedelta(days=3):
            due = licensable_on(pack, born)
            for acquired in (
                None,
                start - timedelta(days=1),
                start,
                on,
                due - timedelta(days=1),
                due,
                due + timedelta(days=1),
            ):
                herd.append(Animal(born_on=born, altered=len(herd) % 3 == 0, acquired_on=acquired))
            born += timedelta(days=1)
        herd.append(Animal(born_on=start - timedelta(days=4000), altered=True))
        rows = [row_of(a) for a in herd]
        one_by_one = [ask(pack, a, on, EDGE_LOCAL) for a in herd]
        clear_memos()
        assert decide_rows(pack, rows, on, EDGE_LOCAL, question) == one_by_one, pack_id
        assert decide_rows(pack, rows[::-1], on, EDGE_LOCAL, question) == one_by_one[::-1], pack_id
        assert decide_many(pack, herd, on, EDGE_LOCAL, question) == one_by_one, pack_id


@pytest.mark.parametrize(
    "period", [Period(months=5), Period(months=1), Period(days=0), Period(days=30), Period(years=1)]
)
def test_the_first_birth_date_of_age_in_the_year_is_found_by_bisection(period):
    """The first birth date whose licensable-age day is on or after a day, checked against the
    calendar day by day, for periods of months (landing past a shorter month's end), days, years."""
    terms = SimpleNamespace(due=lambda born: plus(born, period))
    for start in (date(2025, 1, 1), date(2024, 3, 1), date(2024, 2, 29), date(2025, 7, 31), date(2023, 10, 1)):
        first = _first_born_due_on_or_after(terms, start)
        assert terms.due(first) >= start > terms.due(first - timedelta(days=1)), (period, start, first)
    # So early in the calendar that no birth date comes of age before it.
    assert _first_born_due_on_or_after(terms, date(1, 1, 1)) == date.min
