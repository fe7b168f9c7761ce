"""The state's limits on what a municipality sets itself (s. 174.05(2), (3), (5)), checked by
`limits.state_limits` for the clerk's fee schedule."""

from datetime import date
from decimal import Decimal

from dogtag.rules.limits import state_limits
from dogtag.rules.packs import load_pack

ON = date(2026, 1, 1)


def sections(found):
    return [(o.key, o.citation.section) for o in found]


def test_it_refuses_a_local_late_fee_other_than_the_states_five_dollars():
    found = state_limits(load_pack("wi-webster"), "late_fee", Decimal("10.00"), ON)
    assert sections(found) == [("late_fee", "s. 174.05(5)")]
    assert "late fee of $5.00, not $10.00" in found[0].message


def test_it_accepts_the_five_dollar_late_fee():
    assert state_limits(load_pack("wi-benton"), "late_fee", Decimal("5.00"), ON) == []


def test_it_refuses_a_tax_below_the_state_minimum():
    found = state_limits(load_pack("wi-benton"), "license_tax.unaltered", Decimal("7.99"), ON)
    assert sections(found) == [("license_tax.unaltered", "s. 174.05(2)")]


def test_the_intact_tax_must_be_greater_than_the_altered_one_either_way_round():
    pack = load_pack("wi-sampson")
    found = state_limits(pack, "license_tax.unaltered", Decimal("10.00"), ON, {"license_tax.altered": Decimal("10.00")})
    assert sections(found) == [("license_tax.unaltered", "s. 174.05(3)")]
    found = state_limits(pack, "license_tax.altered", Decimal("12.00"), ON, {"license_tax.unaltered": Decimal("11.00")})
    assert sections(found) == [("license_tax.altered", "s. 174.05(3)")]
    assert "must be greater" in found[0].message
    assert (
        state_limits(pack, "license_tax.altered", Decimal("5.00"), ON, {"license_tax.unaltered": Decimal("11.00")})
        == []
    )


def test_an_amount_the_state_does_not_limit_passes():
    assert state_limits(load_pack("wi-benton"), "forfeiture.minimum", Decimal("1.00"), ON) == []


def test_the_pack_loader_and_the_fee_schedule_run_one_check():
    """`state_limits.breaches` is the one check: the fee schedule's refusal is its breach, word for word."""
    from dogtag.rules import limits
    from dogtag.rules.state_limits import breaches

    assert limits.breaches is breaches
    [breach] = breaches(load_pack("wi").licensing, ON, {"unaltered": Decimal("7.99")})
    [refusal] = state_limits(load_pack("wi-benton"), "license_tax.unaltered", Decimal("7.99"), ON)
    assert (refusal.message, refusal.citation) == (breach.message, breach.provision.cite.citation)


def test_the_intact_rule_binds_only_a_raised_tax():
    """s. 174.05(3): "If the governing body ... increases the minimum tax": at the minimums both."""
    state = load_pack("wi").licensing
    assert breaches_of(state, {"altered": Decimal("3.00"), "unaltered": Decimal("8.00")}) == []
    assert [b.kind for b in breaches_of(state, {"altered": Decimal("9.00"), "unaltered": Decimal("8.00")})] == [
        "unaltered"
    ]


def breaches_of(state, amounts):
    from dogtag.rules.state_limits import breaches

    return breaches(state, ON, amounts)


def test_webster_late_fee_is_held_to_five_dollars_until_a_ruling_lets_the_board_set_it():
    """§ 98-4 "as established by the Village Board" against s. 174.05(5)'s "$5": a reading. On
    Dogtag's reading the fee schedule refuses $10; ruled the other way, from the ruling's day, it
    takes it. The check is the same; the ruled pack says the late fee is not held to the state's."""
    from dogtag.rules.packs import pack_on
    from dogtag.rules.schema import Ruled

    ruling = [("licensing.late_fee", Ruled(by="board_resolution", number="R-4", on=date(2026, 6, 1), reading="other"))]
    before, after = pack_on("wi-webster", date(2026, 5, 31), ruling), pack_on("wi-webster", date(2026, 6, 1), ruling)
    assert [o.citation.section for o in state_limits(before, "late_fee", Decimal("10.00"), ON)] == ["s. 174.05(5)"]
    assert state_limits(after, "late_fee", Decimal("10.00"), ON) == []
    assert state_limits(after, "license_tax.unaltered", Decimal("7.99"), ON) != []
