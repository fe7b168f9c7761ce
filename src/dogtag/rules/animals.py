"""The chapter's rules on other animals and on care, as an officer applies them: prohibited wild
animals (Webster § 98-13C, D; Cedarburg § 7-1-13(c), (d)), redeeming a neglected animal
(Webster § 98-17C; Cedarburg § 7-1-17(a)(3)), traps (Webster § 98-19; Cedarburg § 7-1-19), bees
(Cedarburg § 7-1-24), selling chicks and rabbits (Webster § 98-14; Cedarburg § 7-1-14), the owner's
duties after a bite (Benton § 115-8, Webster § 98-9, Cedarburg § 7-1-9) and the standards of
shelter (Benton § 115-15, Webster § 98-16)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Annotated, Literal

from pydantic import Field

from .catalogue import Facts, PackSet, PackValues, named_by, question
from .dates import ONE_DAY, plus_months
from .decision import Decision
from .schema import Cite, Measure, Provision, Strict, section
from .spans import choice_notes
from .time import last_day


class ProhibitedKind(Strict):
    kind: str
    at_least_length_in: int | None = None  # "30 inches in length or more"
    cite: Cite | None = None  # the list item's own words


class PetShopConditions(Strict):
    no_residence_within_ft: int


class ProhibitedAnimals(Provision):
    """Keeping is unlawful for the listed kinds (and any animal the officer finds of wild, vicious
    or dangerous propensities); `exempt_keepers` may keep them where `conditions` hold."""

    kinds: list[ProhibitedKind] = []
    exempt_keepers: list[str]
    conditions: PetShopConditions | None = None
    conditions_bind: list[str] = []  # which exempt keepers the conditions bind


class Redemption(Provision):
    days: int


class Traps(Provision):
    allowed: list[Literal["live_box"]]
    not_applicable: list[Literal["within_buildings", "official_duties"]]


class Bees(Provision):
    """`school_study`: the section does not reach bees kept within a school or university building
    for study or observation (Cedarburg § 7-1-24)."""

    from_boundary_ft: int
    rear_yard_only: bool
    barrier_within_ft: int
    barrier_min_height_ft: int
    watering: bool
    conditional_use_permit: bool
    school_study: Provision | None = None


class FowlSale(Provision):
    """Colored animals may not be sold or displayed; `brooder_required`; a retailer may not sell
    the young `under_months` old in a quantity less than `min_quantity` (unless for `purposes`)."""

    colored_prohibited: bool = True
    brooder_required: bool = False
    under_months: int | None = None
    min_quantity: int | None = None
    purposes: list[Literal["agricultural", "wildlife", "scientific"]] = []


class BiteReport(Provision):
    report_to: str
    surrender_on_demand: bool = True


class Shelter(Provision):
    standards: list[str]
    no_unoccupied_residence: Provision | None = None


@section("animals")
class AnimalsSection(Strict):
    prohibited: ProhibitedAnimals | None = None
    neglected_redemption: Redemption | None = None
    traps: Traps | None = None
    bees: Bees | None = None
    fowl_sale: FowlSale | None = None
    bite_report: BiteReport | None = None
    shelter: Shelter | None = None


def _rule(pack, name: str):
    s: AnimalsSection | None = pack.animals
    return getattr(s, name) if s is not None else None


def _no_rule(cls, what: str) -> Decision:
    return Decision(cls(applies=False), (), (f"this law has no rule on {what}",))


@cache
def _prohibited_kinds(pack) -> PackValues | None:
    rule = _rule(pack, "prohibited")
    return (
        None if rule is None or not rule.kinds else named_by("animals.prohibited", rule, [k.kind for k in rule.kinds])
    )


@cache
def _exempt_keepers(pack) -> PackValues | None:
    rule = _rule(pack, "prohibited")
    return None if rule is None else named_by("animals.prohibited", rule, rule.exempt_keepers)


ProhibitedKind_ = Annotated[
    str,
    PackSet(
        "ProhibitedKind",
        _prohibited_kinds,
        "a kind of animal the ordinance lists as prohibited",
        other="not a listed kind: prohibited only on the officer's finding of wild or dangerous propensities",
    ),
]
ExemptKeeper = Annotated[
    str,
    PackSet(
        "ExemptKeeper",
        _exempt_keepers,
        "a keeper the ordinance exempts",
        other="not an exempt keeper (as null): the animal is prohibited if listed or found dangerous",
    ),
]


class ProhibitedFacts(Facts):
    kind: ProhibitedKind_ | None = None  # as the pack lists it (crocodilian, constrictor_snake, lion, ...)
    length_in: Measure | None = None
    wild_or_dangerous_propensities: bool = False  # the officer's finding, for an animal not listed
    keeper: ExemptKeeper | None = None  # pet_shop, zoo, circus, veterinarian_for_treatment, ...
    # the officer's finding that the quarters conform to zoning, are clean and sanitary and escape-proof
    quarters_conform: bool = False
    nearest_residence_ft: Measure | None = None


@dataclass(frozen=True)
class ProhibitedAnswer:
    applies: bool
    prohibited: bool | None = None
    listed: bool | None = None
    exempt_keeper: bool | None = None
    failures: tuple[str, ...] = ()


@question(
    "prohibited_animal",
    facts=ProhibitedFacts,
    value=ProhibitedAnswer,
    doc="Whether keeping an animal is prohibited: a listed kind (with its length threshold), or an animal "
    "of wild, vicious or dangerous propensities, unless kept by an exempt keeper meeting the conditions.",
)
def prohibited_animal(pack, f: ProhibitedFacts, on: date, local) -> Decision:
    rule: ProhibitedAnimals | None = _rule(pack, "prohibited")
    if rule is None:
        return _no_rule(ProhibitedAnswer, "prohibited animals")
    listed, cites = False, list(rule.citations())
    for k in rule.kinds:
        if k.kind == f.kind:
            listed = k.at_least_length_in is None or (f.length_in is not None and f.length_in >= k.at_least_length_in)
            if k.cite is not None:
                cites.insert(1, k.cite.citation)
    caught = listed or f.wild_or_dangerous_propensities
    exempt, fails = False, []
    if caught and f.keeper in rule.exempt_keepers:
        exempt = True
        if rule.conditions and f.keeper in rule.conditions_bind:
            within = rule.conditions.no_residence_within_ft
            if not f.quarters_conform:
                exempt = False
                fails.append(
                    "the quarters are not shown to conform to zoning, to be clean and sanitary and to prevent escape"
                )
            if f.nearest_residence_ft is None or f.nearest_residence_ft <= within:
                exempt = False
                fails.append(f"a person is not shown to live more than {within} feet from the animals' quarters")
    value = ProhibitedAnswer(True, caught and not exempt, listed, exempt, tuple(fails))
    return Decision(value, tuple(cites), choice_notes(rule))


class RedemptionFacts(Facts):
    notified_on: date
    redeemed_on: date | None = None


@dataclass(frozen=True)
class RedemptionAnswer:
    applies: bool
    last_day_to_redeem: date | None = None
    stray_from: date | None = None
    redeemed_in_time: bool | None = None


@question(
    "neglected_animal_redemption",
    facts=RedemptionFacts,
    value=RedemptionAnswer,
    doc="An animal an officer removed as neglected: the owner's last day to redeem it by paying the expenses "
    "(within five days after notice), and the day from which it may be treated as a stray.",
)
def neglected_animal_redemption(pack, f: RedemptionFacts, on: date, local) -> Decision:
    rule: Redemption | None = _rule(pack, "neglected_redemption")
    if rule is None:
        return _no_rule(RedemptionAnswer, "redeeming a neglected animal")
    counted = last_day(f.notified_on, rule.days, not_moved=rule.not_moved)
    last = counted.day
    in_time = None if f.redeemed_on is None else f.redeemed_on <= last
    value = RedemptionAnswer(True, last, last + ONE_DAY, in_time)
    return Decision(value, (*rule.citations(), *counted.citations), (*choice_notes(rule), *counted.notes))


class TrapFacts(Facts):
    trap: Literal["live_box", "leg", "pan", "other_killing_or_wounding"]
    within_building: bool = False
    official_duties: bool = False


@dataclass(frozen=True)
class TrapAnswer:
    applies: bool
    allowed: bool | None = None
    reason: str | None = None


@question(
    "trap_allowed",
    facts=TrapFacts,
    value=TrapAnswer,
    doc="Whether setting, placing or tending a trap is allowed: live box-type traps only, except within "
    "buildings or homes and for the municipality's own duties.",
)
def trap_allowed(pack, f: TrapFacts, on: date, local) -> Decision:
    rule: Traps | None = _rule(pack, "traps")
    if rule is None:
        return _no_rule(TrapAnswer, "traps")
    if f.within_building and "within_buildings" in rule.not_applicable:
        value = TrapAnswer(True, True, "the section does not apply within buildings or homes")
    elif f.official_duties and "official_duties" in rule.not_applicable:
        value = TrapAnswer(True, True, "the municipality's employees or agents performing official duties")
    elif f.trap in rule.allowed:
        value = TrapAnswer(True, True, "a live box-type trap (Chapter 29, Wis. Stats., still applies)")
    else:
        value = TrapAnswer(True, False, "only live box-type traps may be used")
    return Decision(value, (*rule.citations(),), choice_notes(rule))


class BeeFacts(Facts):
    from_boundary_ft: Measure  # nearest property boundary to the hive, stand or box
    in_rear_yard: bool
    barrier_height_ft: Measure | None = None
    watering_provided: bool = False
    conditional_use_permit: bool = False
    in_school_building_for_study: bool = False  # within a school or university building, for study or observation


@dataclass(frozen=True)
class BeeAnswer:
    applies: bool
    complies: bool | None = None
    failures: tuple[str, ...] = ()
    barrier_required: bool | None = None
    from_boundary_ft: int | None = None
    barrier_min_height_ft: int | None = None


@question(
    "bee_keeping",
    facts=BeeFacts,
    value=BeeAnswer,
    doc="Whether bees are kept as the ordinance allows: the hive's setback from every property boundary, the "
    "rear yard, a barrier of the minimum height when colonies are near an exterior boundary, water and "
    "the conditional use permit.",
)
def bee_keeping(pack, f: BeeFacts, on: date, local) -> Decision:
    rule: Bees | None = _rule(pack, "bees")
    if rule is None:
        return _no_rule(BeeAnswer, "keeping bees")
    if rule.school_study is not None and f.in_school_building_for_study:
        value = BeeAnswer(True, True, (), False, rule.from_boundary_ft, rule.barrier_min_height_ft)
        return Decision(value, (rule.cite.citation, rule.school_study.cite.citation), choice_notes(rule.school_study))
    fails: list[str] = []
    if f.from_boundary_ft < rule.from_boundary_ft:
        fails.append(f"the hive is closer than {rule.from_boundary_ft} feet to a property boundary")
    if rule.rear_yard_only and not f.in_rear_yard:
        fails.append("the hive is not in the rear yard")
    barrier = f.from_boundary_ft <= rule.barrier_within_ft
    if barrier and (f.barrier_height_ft is None or f.barrier_height_ft < rule.barrier_min_height_ft):
        fails.append(
            f"colonies within {rule.barrier_within_ft} feet of an exterior boundary need a barrier at "
            f"least {rule.barrier_min_height_ft} feet high along it"
        )
    if rule.watering and not f.watering_provided:
        fails.append("no fresh, clean watering facilities for the bees")
    if rule.conditional_use_permit and not f.conditional_use_permit:
        fails.append("no conditional use permit under the Zoning Code")
    value = BeeAnswer(True, not fails, tuple(fails), barrier, rule.from_boundary_ft, rule.barrier_min_height_ft)
    return Decision(value, (*rule.citations(),), choice_notes(rule))


class FowlSaleFacts(Facts):
    colored_artificially: bool = False
    brooder_facilities: bool = True
    by_retailer: bool = False
    born_on: date | None = None
    quantity: int = Field(default=1, ge=1)
    purpose: Literal["agricultural", "wildlife", "scientific"] | None = None


@dataclass(frozen=True)
class FowlSaleAnswer:
    applies: bool
    allowed: bool | None = None
    failures: tuple[str, ...] = ()
    under_age_until: date | None = None


@question(
    "fowl_sale",
    facts=FowlSaleFacts,
    value=FowlSaleAnswer,
    doc="Whether living chicks, ducklings, other fowl or rabbits may be sold or given away: never dyed or "
    "colored; with brooder facilities; by a retailer, not under the minimum age in fewer than the "
    "minimum quantity unless for agricultural, wildlife or scientific purposes.",
)
def fowl_sale(pack, f: FowlSaleFacts, on: date, local) -> Decision:
    rule: FowlSale | None = _rule(pack, "fowl_sale")
    if rule is None:
        return _no_rule(FowlSaleAnswer, "selling chicks or rabbits")
    fails: list[str] = []
    if rule.colored_prohibited and f.colored_artificially:
        fails.append("dyed or otherwise colored artificially")
    if rule.brooder_required and not f.brooder_facilities:
        fails.append("no proper brooder facilities")
    until = None
    if rule.under_months is not None and f.born_on is not None:
        until = plus_months(f.born_on, rule.under_months)  # under the age through the day before
        if (
            f.by_retailer
            and on < until
            and rule.min_quantity is not None
            and f.quantity < rule.min_quantity
            and f.purpose not in rule.purposes
        ):
            fails.append(
                f"a retailer may not sell animals under {rule.under_months} months of age in a quantity "
                f"less than {rule.min_quantity}"
            )
    value = FowlSaleAnswer(True, not fails, tuple(fails), until)
    return Decision(value, (*rule.citations(),), choice_notes(rule))


class BiteDutyFacts(Facts):
    bitten_on: date
    isolation_starts_on: date | None = None  # the veterinarian's isolation, where it starts later


@dataclass(frozen=True)
class BiteDutyAnswer:
    applies: bool
    report_to: str | None = None
    report_when: str | None = None
    confined_through: date | None = None
    confinement_days: int | None = None
    surrender_on_demand: bool | None = None


@question(
    "bite_owner_duties",
    facts=BiteDutyFacts,
    value=BiteDutyAnswer,
    doc="The duties of an owner or keeper who knows the animal bit a person: to whom to report (immediately), "
    "the confinement's last day and days, and surrender to an officer on demand.",
)
def bite_owner_duties(pack, f: BiteDutyFacts, on: date, local) -> Decision:
    rule: BiteReport | None = _rule(pack, "bite_report")
    if rule is None:
        return _no_rule(BiteDutyAnswer, "the owner's duty after a bite")
    cites, notes = list(rule.citations()), list(choice_notes(rule))
    confinement = pack.quarantine.owner_confinement if pack.quarantine is not None else None
    through = days = None
    if confinement is not None:
        days = confinement.days
        confined = confinement.count(f.bitten_on)
        through = confined.day
        cites += [confinement.cite.citation, *confined.citations]
        notes += [*choice_notes(confinement), *confined.notes]
        isolation = pack.quarantine.isolation_period
        if confinement.with_isolation and isolation is not None:
            # "confined pursuant to the requirements of" the quarantine section (Cedarburg § 7-1-9):
            # until its isolation ends, where that is later (§ 7-1-5(e)(1))
            start = f.isolation_starts_on or f.bitten_on
            if start < f.bitten_on:
                raise ValueError(
                    f"isolation_starts_on {start} is before the bite on {f.bitten_on}: the isolation "
                    f"follows the bite ({isolation.cite.citation.section})"
                )
            isolated = isolation.count(start)
            if isolated.day > through:
                through = isolated.day
            cites += [isolation.cite.citation, *isolated.citations]
            notes += [n for n in (*choice_notes(isolation), *isolated.notes) if n not in notes]
    value = BiteDutyAnswer(True, rule.report_to, "immediately", through, days, rule.surrender_on_demand)
    return Decision(value, tuple(cites), tuple(notes))


@cache
def _shelter_standards(pack) -> PackValues | None:
    rule: Shelter | None = _rule(pack, "shelter")
    # cited by its own section only: the refusal reads "... here (§ 98-16A)"
    return None if rule is None else PackValues(tuple(rule.standards), "animals.shelter", (rule.cite.section,))


ShelterStandard = Annotated[
    str,
    PackSet(
        "ShelterStandard",
        _shelter_standards,
        "a standard of shelter",
        closed=True,
    ),
]


class ShelterFacts(Facts):
    met: list[ShelterStandard] = []  # the standards the officer found met, in the pack's words
    kept_at_unoccupied_residence: bool = False


@dataclass(frozen=True)
class ShelterAnswer:
    applies: bool
    complies: bool | None = None
    not_met: tuple[str, ...] = ()
    standards: tuple[str, ...] = ()


@question(
    "shelter_standards",
    facts=ShelterFacts,
    value=ShelterAnswer,
    doc="The standards of shelter an officer checks (temperature, ventilation, shade, shelter from weather, "
    "structure, space, sanitation), which the facts leave unmet, and an animal kept at an unoccupied "
    "residence.",
)
def shelter_standards(pack, f: ShelterFacts, on: date, local) -> Decision:
    rule: Shelter | None = _rule(pack, "shelter")
    if rule is None:
        return _no_rule(ShelterAnswer, "shelter")
    # a standard the pack does not name is refused before this (ShelterStandard is a closed set)
    not_met = [s for s in rule.standards if s not in f.met]
    cites = list(rule.citations())
    if rule.no_unoccupied_residence is not None and f.kept_at_unoccupied_residence:
        not_met.append("kept on or in an unoccupied (other than a primary) residence")
        cites.append(rule.no_unoccupied_residence.cite.citation)
    value = ShelterAnswer(True, not not_met, tuple(not_met), tuple(rule.standards))
    return Decision(value, tuple(cites), choice_notes(rule))
