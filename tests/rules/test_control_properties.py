"""Properties of the animal-control answers that must hold for every date and jurisdiction."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from dogtag.rules import ask, load_pack
from dogtag.rules.calendars import is_court_day as is_business_day
from dogtag.rules.packs import pack_ids

days = st.dates(min_value=date(2019, 1, 1), max_value=date(2035, 12, 31))
packs = st.sampled_from(pack_ids())
FAST = settings(max_examples=150, deadline=None)


@FAST
@given(packs, days)
def test_the_vaccination_window_lies_inside_the_quarantine(jurisdiction, exposed_on):
    value = ask(
        jurisdiction, "exposure_quarantine", {"exposed_on": exposed_on, "immunized_on_exposure": False}, exposed_on
    ).value
    window = value.vaccination_window
    assert exposed_on < window["from"] <= window["to"] <= value.confined_until


@FAST
@given(packs, days, st.booleans())
def test_quarantine_ends_after_the_bite_and_the_examinations_lie_inside_it(jurisdiction, bitten_on, immunized):
    value = ask(
        jurisdiction,
        "bite_quarantine",
        {
            "bitten_on": bitten_on,
            "currently_immunized": immunized,
            "ordered_at": datetime.combine(bitten_on, datetime.min.time()),
        },
        bitten_on,
    ).value
    exams = value.examination_days
    assert bitten_on <= exams.first < exams.suggested_intervening < exams.last == value.observation_ends
    assert value.delivery_deadline > datetime.combine(bitten_on, datetime.min.time())
    assert value.owner_confinement_ends is None or value.owner_confinement_ends >= value.observation_ends
    assert ("owner_premises" in value.places_allowed) <= immunized


@FAST
@given(days)
def test_business_day_deadlines_fall_on_a_business_day_after_the_trigger(served_on):
    for question, facts in (
        ("contest_deadline", {"served_on": served_on}),
        ("appeal_deadline", {"decision_received_on": served_on}),
    ):
        deadline = ask("wi-river-hills", question, facts, served_on).value.deadline
        assert deadline > served_on and is_business_day(deadline)
        counted = sum(is_business_day(served_on + timedelta(days=n)) for n in range(1, (deadline - served_on).days + 1))
        assert counted == 5


@FAST
@given(
    st.sampled_from(["wi-benton", "wi-webster", "wi-river-hills"]),
    days,
    st.sampled_from(["potentially_dangerous", "dangerous", "vicious"]),
    st.booleans(),
)
def test_no_deadline_comes_before_its_trigger(jurisdiction, declared_on, classification, contested):
    hearing = ask("wi-river-hills", "hearing_window", {"served_on": declared_on}, declared_on).value
    assert declared_on < hearing.earliest <= hearing.latest
    compliance = ask("wi-river-hills", "compliance_deadline", {"determined_on": declared_on}, declared_on).value
    assert compliance.last_day > declared_on
    value = ask(
        jurisdiction,
        "requirement_deadlines",
        {
            "classification": classification,
            "declared_on": declared_on,
            "written_notice_on": declared_on,
            "contested": contested,
        },
        declared_on,
    ).value
    assert value.applies
    for requirement in value.requirements.values():
        assert requirement.deadline is None or requirement.deadline > declared_on
        assert requirement.amount is None or requirement.amount > 0


@FAST
@given(st.sampled_from(["wi-webster", "wi-cedarburg", "wi-sampson"]), days, st.integers(0, 20), st.booleans())
def test_the_owner_may_always_claim_after_the_notice(jurisdiction, impounded_on, delay, bit_person):
    notice = impounded_on + timedelta(days=delay)
    value = ask(
        jurisdiction,
        "impoundment_holding",
        {"impounded_on": impounded_on, "notice_on": notice, "notice_received_on": notice, "bit_person": bit_person},
        notice,
    ).value
    assert notice < value.claim_by < value.unclaimed_from


@FAST
@given(days, st.sampled_from(["regular_mail", "certified_mail", "personal_service", "door_posting"]))
def test_a_notice_never_takes_effect_before_it_is_sent(sent_on, method):
    facts = {"method": method, "mailed_on": sent_on, "received_on": sent_on, "served_on": sent_on, "posted_on": sent_on}
    assert ask("wi-river-hills", "notice_effective", facts, sent_on).value.effective_on >= sent_on


def _schedules(jurisdiction):
    s = load_pack(jurisdiction).forfeitures
    return [x for rule in list(s.ordinance) + list(s.statute) for x in rule.sections]


@FAST
@given(packs, days, st.integers(1, 12), st.booleans(), st.data())
def test_no_forfeiture_is_negative_and_the_minimum_never_exceeds_the_maximum(jurisdiction, on, offense, notice, data):
    violation = data.draw(st.sampled_from(_schedules(jurisdiction)))
    local = {
        "forfeiture.minimum": {"2000-01-01": "10.00"},
        "forfeiture.maximum": {"2000-01-01": "100.00"},
        "license_forfeiture.minimum": {"2000-01-01": "0.00"},
        "license_forfeiture.maximum": {"2000-01-01": "1.00"},
    }
    value = ask(
        jurisdiction,
        "forfeiture",
        {"violation": violation, "offense_number": offense, "after_notice_of_prior_bite": notice},
        on,
        local,
    ).value
    if value.applies and value.minimum is not None:
        assert Decimal(0) <= value.minimum <= value.maximum


@FAST
@given(days, st.booleans())
def test_the_permit_fee_is_never_negative_nor_above_the_annual_fee(on, first):
    fee = ask("wi-river-hills", "vicious_dog_permit_fee", {"first_permit": first}, on).value
    annual = ask("wi-river-hills", "vicious_dog_permit_fee", {"first_permit": False}, on).value.fee
    assert Decimal(0) < fee.fee <= annual == fee.annual_fee


@FAST
@given(
    st.sampled_from(["wi", "wi-river-hills", "wi-webster", "wi-cedarburg", "wi-sampson"]),
    days,
    st.integers(0, 30),
    st.integers(1, 6),
)
def test_release_fees_are_never_negative(jurisdiction, impounded_on, stay, number):
    local = {"impoundment_fee": {"2000-01-01": "0.00"}, "impoundment_daily_fee": {"2000-01-01": "0.00"}}
    value = ask(
        jurisdiction,
        "impoundment_release",
        {"impounded_on": impounded_on, "impoundment_number": number},
        impounded_on + timedelta(days=stay),
        local,
    ).value
    assert value.fee is None or value.fee >= 0
