"""The batch entry point answers exactly what the one-by-one questions answer, for every pack.

`decide_many` shares one Decision among animals that agree on the facts that matter; these
properties draw whole herds of random animals (both species, every training, exclusions,
acquisitions on both sides of every threshold, license years given and not) and compare each
answer with the question asked alone.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dogtag.rules import load_pack
from dogtag.rules.amounts import LocalAmounts
from dogtag.rules.licensing import Animal, decide_many, late_fee, license_charges, license_tax

PACKS = ["wi", "wi-benton", "wi-webster", "wi-river-hills", "wi-sampson", "wi-cedarburg"]
ONE_BY_ONE = {"license_tax": license_tax, "late_fee": late_fee, "license_charges": license_charges}
money = st.decimals(min_value=0, max_value=60, places=2).map(str)


@st.composite
def animals(draw, on: date):
    born = on - timedelta(days=draw(st.integers(-200, 365 * 6)))
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
    local = LocalAmounts.of({
        key: {"2018-01-01": draw(money), **({"2024-07-01": draw(money)} if draw(st.booleans()) else {})}
        for key in ("license_tax.altered", "license_tax.unaltered", "late_fee")
        if draw(st.integers(0, 4))  # now and then a fee nobody has set
    })
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
    assert decide_many(pack, herd, on, local, question) == [ask(pack, a, on, local) for a in herd]


def test_it_computes_each_group_once():
    pack = load_pack("wi-benton")
    on = date(2026, 5, 2)
    local = LocalAmounts.of({"license_tax.altered": {"2020-01-01": "5.00"},
                             "license_tax.unaltered": {"2020-01-01": "10.00"}, "late_fee": {"2020-01-01": "5.00"}})
    renewing = [Animal(born_on=date(2015 + i % 8, 1 + i % 12, 1 + i % 28), altered=i % 2 == 0) for i in range(1000)]
    decisions = decide_many(pack, renewing, on, local)
    # Owned before the year began and licensed after March 31: two groups, altered or not.
    assert len({id(d) for d in decisions}) == 2
    assert {d.value.total for d in decisions} == {license_charges(pack, renewing[0], on, local).value.total,
                                                  license_charges(pack, renewing[1], on, local).value.total}


def test_it_takes_any_object_with_the_facts():
    from collections import namedtuple

    Row = namedtuple("Row", "species born_on altered acquired_on trained_to kept_only_for_education_or_science "
                            "license_year")
    pack, on = load_pack("wi-cedarburg"), date(2026, 8, 3)
    row = Row("cat", date(2026, 2, 20), False, None, None, False, None)
    facts = Animal(species="cat", born_on=date(2026, 2, 20))
    assert decide_many(pack, [row], on) == [license_charges(pack, facts, on, LocalAmounts.of({}))]


def test_it_names_the_questions_it_answers():
    with pytest.raises(KeyError, match="license_charges"):
        decide_many(load_pack("wi"), [], date(2026, 1, 1), question="rabies_current")
