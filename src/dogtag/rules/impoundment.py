"""Impoundment: the officer's basis, the holding period, release conditions and fees.

State base ch. 173 (s. 173.23 release); River Hills § 2.14(4), Webster § 98-7, Cedarburg § 7-1-7,
Sampson Ord. 3-2007 Sections 4 and 8.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache
from typing import Annotated, Literal

from pydantic import Field

from .amounts import amount_at
from .catalogue import Facts, PackSet, PackValues, named_by, question
from .dates import ONE_DAY
from .decision import Decision
from .schema import Amount, Provision, Strict, section
from .spans import Days
from .time import last_day

Condition = Literal[
    "proof_of_ownership", "licensed_or_prepaid", "vaccinated_or_prepaid", "charges_paid", "licensed", "tagged"
]


class Basis(Provision):
    """What the impounding officer must have: seen or heard the violation, or a sworn complaint."""

    accepts: list[Literal["officer_saw_or_heard", "sworn_complaint"]]


Ground = Literal[
    "pursues_vehicles",
    "attacks_person",
    "at_large",
    "barks_or_howls",
    "kills_or_worries_domestic_animal",
    "rabies",
    "unlicensed",
    "untagged",
    "not_confined_in_rabies_quarantine",
    "other",
]


class Grounds(Provision):
    """The conduct for which an animal may be impounded at all (River Hills § 2.14(4) limits it to
    the dogs of subsection (3)); a ground not listed is refused. `exclusive: false`: the list names
    what the ordinance's own power reaches and keeps ch. 173's (Sampson Section 8D), so a ground
    not listed is left to the general power (`custody`), not refused."""

    grounds: list[Ground]
    exclusive: bool = True


class Custody(Provision):
    """The general power to take custody where the ordinance sets no list of grounds (ch. 173)."""


class Holding(Provision):
    days: int | None = Field(default=None, ge=0)
    runs_from: Literal["notice", "notice_received", "custody"]


class Conditions(Provision):
    conditions: list[Condition]


class FeeTier(Strict):
    from_impoundment: int = Field(ge=1)
    amount: Amount


class ReleaseFee(Provision):
    tiers: list[FeeTier]
    per_day: Amount | None = None
    plus: list[str] = []


@section("impoundment")
class ImpoundmentSection(Strict):
    basis: Basis | None = None
    grounds: Grounds | None = None
    custody: Custody | None = None
    holding: Holding | None = None
    stray_holding: Holding | None = None
    biter_observation: Days | None = None
    release_conditions: Conditions | None = None
    local_release_conditions: Conditions | None = None
    release_fee: ReleaseFee | None = None
    costs_incurred: Provision | None = None


@cache
def _grounds(pack) -> PackValues | None:
    s: ImpoundmentSection | None = pack.impoundment
    rule = None if s is None else s.grounds
    return None if rule is None else named_by("impoundment.grounds", rule, rule.grounds)


ListedGround = Annotated[
    Ground,
    PackSet(
        "ImpoundmentGround",
        _grounds,
        "a conduct the ordinance lets an officer impound for",
        other="a conduct it does not list: no ground to impound (ground_listed false)",
    ),
]


class BasisFacts(Facts):
    officer_saw_or_heard: bool = False
    sworn_complaint: bool = False
    ground: ListedGround | None = None  # the conduct the animal is impounded for


@dataclass(frozen=True)
class BasisAnswer:
    """`may_impound`: false if a rule the ordinance sets fails, true if every one is met, None where
    it sets none (`general_custody_power`: the officer's power under ch. 173, cited) or the ground is
    `awaiting`. `evidence_met` and `ground_listed` are each rule's answer (None: no such rule, or
    the ground not yet said)."""

    may_impound: bool | None
    evidence_met: bool | None = None
    ground_listed: bool | None = None
    general_custody_power: bool = False
    awaiting: Literal["ground"] | None = None


@question(
    "impoundment_basis",
    facts=BasisFacts,
    value=BasisAnswer,
    doc="May the officer impound: is the conduct one the ordinance lets an officer impound for "
    "(`ground_listed`), and has the officer seen or heard the violation or does the officer hold a "
    "signed sworn complaint (`evidence_met`)? `may_impound` is false if either fails, true if "
    "every rule the ordinance sets is met, and null where it sets none (the officer's general "
    "power under ch. 173, cited).",
)
def impoundment_basis(pack, facts: BasisFacts, on: date, local) -> Decision:
    s: ImpoundmentSection = pack.impoundment
    cites, notes = [], []
    evidence = ground = awaiting = None
    if s.basis is not None:
        held = {"officer_saw_or_heard": facts.officer_saw_or_heard, "sworn_complaint": facts.sworn_complaint}
        evidence = any(held[a] for a in s.basis.accepts)
        cites.append(s.basis.cite.citation)
    if s.grounds is not None:
        cites += s.grounds.citations()
        notes += [s.grounds.choice] if s.grounds.choice else []
        if facts.ground is None:
            awaiting = "ground"
            notes.append("say which conduct the animal is impounded for (ground)")
        else:
            ground = facts.ground in s.grounds.grounds
    # a ground an open list does not name is neither met nor failed (no rule): the general power decides
    unlisted_open = ground is False and not s.grounds.exclusive and s.custody is not None
    if unlisted_open:
        ground = None
    checks = [c for c in (evidence, ground) if c is not None]
    may = False if False in checks else (True if checks and not unlisted_open else None)
    general = (s.basis is None and s.grounds is None and s.custody is not None) or unlisted_open
    if general:
        cites += s.custody.citations()  # with `also`: the ordinance's own seizure clauses (Benton)
        if unlisted_open:
            unnamed = f"{s.grounds.cite.section} does not name this conduct"
            notes.append(f"{unnamed}: the officer acts under ch. 173, and records the reason")
        notes += [s.custody.choice] if s.custody.choice else []
    value = BasisAnswer(may, evidence, ground, general, awaiting)
    return Decision(value, tuple(cites), tuple(notes))


class HoldingFacts(Facts):
    impounded_on: date
    owner_known: bool = True
    notice_on: date | None = None
    notice_received_on: date | None = None
    bit_person: bool = False


@dataclass(frozen=True)
class HoldingAnswer:
    """`period_in_force`: a holding period is in force here; it `runs_from` the notice, its receipt
    or custody; `claim_by` the owner's last day and `unclaimed_from` the day after, or, while the
    day it runs from is unknown, `awaiting` the fact it waits for."""

    period_in_force: bool
    runs_from: Literal["notice", "notice_received", "custody"]
    claim_by: date | None = None
    unclaimed_from: date | None = None
    awaiting: Literal["notice_on", "notice_received_on"] | None = None


@question(
    "impoundment_holding",
    facts=HoldingFacts,
    value=HoldingAnswer,
    doc="How long an impounded animal is held: the last day the owner may claim it and the "
    "day it counts as unclaimed or abandoned.",
)
def impoundment_holding(pack, facts: HoldingFacts, on: date, local) -> Decision:
    s: ImpoundmentSection = pack.impoundment
    rule = s.holding if facts.owner_known or s.stray_holding is None else s.stray_holding
    if facts.notice_on and facts.notice_received_on and facts.notice_received_on < facts.notice_on:
        raise ValueError(
            f"notice_received_on {facts.notice_received_on} is before notice_on {facts.notice_on}: a notice "
            f"is received on or after the day it is given ({rule.cite.section})"
        )
    cites, notes = list(rule.citations()), []
    if rule.choice:
        notes.append(rule.choice)
    if rule.days is None:
        notes.append(rule.unconfirmed or "no holding period in force here")
        return Decision(HoldingAnswer(False, rule.runs_from), tuple(cites), tuple(notes))
    start = {"notice": facts.notice_on, "notice_received": facts.notice_received_on, "custody": facts.impounded_on}[
        rule.runs_from
    ]
    if start is None:
        needed = {"notice": "notice_on", "notice_received": "notice_received_on"}[rule.runs_from]
        notes.append(f"the holding period runs from the {rule.runs_from.replace('_', ' ')}; {needed} is not yet known")
        return Decision(HoldingAnswer(True, rule.runs_from, awaiting=needed), tuple(cites), tuple(notes))
    counted = last_day(start, rule.days, not_moved=rule.not_moved)
    claim_by = counted.day
    cites += counted.citations
    notes += counted.notes
    if facts.bit_person and s.biter_observation is not None:
        observed = s.biter_observation.count(facts.impounded_on)
        claim_by = max(claim_by, observed.day)
        cites.append(s.biter_observation.cite.citation)
        notes += observed.notes
    value = HoldingAnswer(True, rule.runs_from, claim_by, claim_by + ONE_DAY)
    return Decision(value, tuple(cites), tuple(notes))


class ReleaseFacts(Facts):
    impounded_on: date
    impoundment_number: int = Field(default=1, ge=1)
    proof_of_ownership: bool = True
    license_required: bool = True
    licensed: bool = False
    license_prepaid: bool = False
    vaccinated: bool = False
    vaccination_prepaid: bool = False
    tagged: bool = False
    charges_paid: bool = False


def _met(condition: str, f: ReleaseFacts) -> bool:
    return {
        "proof_of_ownership": f.proof_of_ownership,
        "licensed_or_prepaid": f.licensed or f.license_prepaid or not f.license_required,
        "vaccinated_or_prepaid": f.vaccinated or f.vaccination_prepaid,
        "charges_paid": f.charges_paid,
        "licensed": f.licensed or not f.license_required,
        "tagged": f.tagged,
    }[condition]


@dataclass(frozen=True)
class ReleaseAnswer:
    """The release `conditions` (those `unmet`), `may_release` when none is unmet and every amount
    is set; the `fee` (the `impoundment_fee` by impoundment number, plus `daily_fee` for each of the
    `days_in_shelter`) and its `total`; what the owner pays `plus` it, and whether the costs of
    impoundment and care actually incurred are added (`plus_costs_incurred`)."""

    conditions: tuple[Condition, ...]
    unmet: tuple[Condition, ...]
    may_release: bool
    fee: Decimal | None = None
    impoundment_fee: Decimal | None = None
    daily_fee: Decimal | None = None
    days_in_shelter: int | None = None
    total: Decimal | None = None
    plus: tuple[str, ...] = ()
    plus_costs_incurred: bool = False


@question(
    "impoundment_release",
    facts=ReleaseFacts,
    value=ReleaseAnswer,
    doc="Release of an impounded animal to its owner on date `on`: the conditions, which are "
    "unmet, and the release fee (by impoundment number, plus any daily fee).",
)
def impoundment_release(pack, facts: ReleaseFacts, on: date, local) -> Decision:
    s: ImpoundmentSection = pack.impoundment
    cites, notes, not_set, conditions = [], [], [], []
    for rule in (s.release_conditions, s.local_release_conditions):
        if rule is not None:
            cites.append(rule.cite.citation)
            conditions += [c for c in rule.conditions if c not in conditions]
    unmet = [c for c in conditions if not _met(c, facts)]
    fee = base = daily = days = None
    plus_: list[str] = []
    if s.release_fee is not None:
        rule = s.release_fee
        cites.append(rule.cite.citation)
        tier = max(
            (t for t in rule.tiers if t.from_impoundment <= facts.impoundment_number), key=lambda t: t.from_impoundment
        )
        fee, missing = amount_at(tier.amount, on, local, rule.cite.citation)
        base = fee
        if missing:
            not_set.append(missing)
        if rule.per_day is not None:
            days = max(1, (on - facts.impounded_on).days)
            daily, missing = amount_at(rule.per_day, on, local, rule.cite.citation)
            if missing:
                not_set.append(missing)
            fee = None if fee is None or daily is None else fee + daily * days
            notes.append(f"{days} day(s) in the shelter, counted from the day of impoundment to the day of release")
        plus_ = list(rule.plus)
        notes += [f"plus {p.replace('_', ' ')}" for p in rule.plus]
        if rule.choice:
            notes.append(rule.choice)
    if s.costs_incurred is not None:
        cites.append(s.costs_incurred.cite.citation)
        notes.append("the owner pays the costs of impoundment and care actually incurred")
    value = ReleaseAnswer(
        tuple(conditions),
        tuple(unmet),
        not unmet and not not_set,
        fee,
        base,
        daily,
        days,
        fee,
        tuple(plus_),
        s.costs_incurred is not None,
    )
    return Decision(value, tuple(cites), tuple(notes), tuple(not_set))
