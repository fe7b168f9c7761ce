"""Properties of the licensing rules over many generated dogs and dates (hypothesis)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from dogtag.rules import load_pack
from dogtag.rules.amounts import LocalAmounts
from dogtag.rules.licensing import Animal, late_fee, late_fee_trigger, license_charges

JURISDICTIONS = ["wi", "wi-benton", "wi-webster", "wi-river-hills", "wi-sampson", "wi-cedarburg"]
money = st.decimals(min_value=0, max_value=200, places=2)
days = st.dates(min_value=date(2015, 1, 1), max_value=date(2030, 12, 31))


@st.composite
def cases(draw):
    on = draw(days)
    born = on - timedelta(days=draw(st.integers(0, 365 * 12)))
    acquired = draw(st.one_of(st.none(), st.dates(min_value=born, max_value=on)))
    animal = Animal(
        species=draw(st.sampled_from(["dog", "cat"])),
        born_on=born,
        altered=draw(st.booleans()),
        acquired_on=acquired,
        trained_to=draw(st.sampled_from([None, "lead_blind_or_deaf", "support_mobility", "service"])),
        kept_only_for_education_or_science=draw(st.booleans()),
    )
    local = LocalAmounts.of(
        {
            key: {"2000-01-01": str(draw(money))}
            for key in ("license_tax.altered", "license_tax.unaltered", "late_fee")
            if draw(st.booleans())
        }
    )
    return draw(st.sampled_from(JURISDICTIONS)), animal, on, local


@settings(max_examples=400, deadline=None)
@given(cases())
def test_no_amount_is_negative(case):
    jurisdiction, animal, on, local = case
    value = license_charges(load_pack(jurisdiction), animal, on, local).value
    for key in ("tax", "late_fee", "total"):
        assert getattr(value, key) is None or getattr(value, key) >= Decimal(0)


@settings(max_examples=400, deadline=None)
@given(cases())
def test_a_late_fee_is_charged_only_when_a_trigger_holds(case):
    jurisdiction, animal, on, local = case
    pack = load_pack(jurisdiction)
    decision = late_fee(pack, animal, on, local)
    trigger = late_fee_trigger(pack, animal, on)
    holds = trigger is not None and on > trigger[1] and not (
        animal.kept_only_for_education_or_science and pack.licensing.not_required is not None
    ) and animal.species in pack.licensing.species.species
    amount = decision.value.amount
    if amount is None or amount > 0:  # charged, or charged once the local amount is set
        assert holds and decision.value.trigger == trigger[0]
    if not holds:
        assert amount == 0 and decision.value.trigger is None
