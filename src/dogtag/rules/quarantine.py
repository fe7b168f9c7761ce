"""Rabies quarantine: after a bite, after exposure to a rabid animal, and a district quarantine.

State base s. 95.21 (adopted by every ordinance); Webster § 98-5 and § 98-9, Cedarburg § 7-1-5
and § 7-1-9 and Benton's bite-report section restate it or add to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from typing import Annotated, Literal

from typing_extensions import TypedDict  # pydantic reads typing.TypedDict only from Python 3.12

from .catalogue import Facts, PackSet, PackValues, named_by, question
from .decision import Decision
from .schema import Provision, Strict, section
from .spans import DayRange, Days, Hours, choice_notes


class Place(Provision):
    custodian: Literal["isolation_facility", "veterinarian_within_city"]
    owner_premises: Literal["if_immunized", "never"]


class DistrictQuarantine(Provision):
    species: list[str]
    posting_places: int


class OwnerConfinement(Days):
    """The owner keeps a biting animal confined `days` from the bite; `with_isolation`: the
    confinement is "pursuant to the requirements of" the quarantine section (Cedarburg § 7-1-9),
    so it lasts as long as the isolation does."""

    with_isolation: bool = False


class DistrictExemption(Provision):
    """The district quarantine's exemption for an immunized animal wearing "a rabies vaccination tag
    or substitute tag": `license_tag_substitutes`, a license tag counts as the substitute (a reading)."""

    license_tag_substitutes: bool = False


@section("quarantine")
class QuarantineSection(Strict):
    delivery: Hours | None = None
    place: Place | None = None
    observation: Days | None = None
    isolation_period: Days | None = None  # a period counted from the first day of isolation
    examinations: Provision | None = None
    owner_confinement: OwnerConfinement | None = None
    exposure_not_immunized: Days | None = None
    vaccination_window: DayRange | None = None
    exposure_immunized: Days | None = None
    district: DistrictQuarantine | None = None
    district_exemption: DistrictExemption | None = None


class BiteFacts(Facts):
    bitten_on: date
    ordered_at: datetime | None = None
    currently_immunized: bool
    isolation_starts_on: date | None = None


PlaceAllowed = Literal["isolation_facility", "veterinarian_within_city", "owner_premises"]


@dataclass(frozen=True)
class ExaminationDays:
    """The three examinations: the `first` day of isolation, one between `intervening_from` and
    `intervening_to` (`suggested_intervening` the middle day), the `last` day."""

    first: date
    intervening_from: date
    intervening_to: date
    suggested_intervening: date
    last: date


@dataclass(frozen=True)
class BiteQuarantine:
    """Where the animal may be kept (`places_allowed`), by when it is delivered there
    (`delivery_deadline`, None where no order time is known or no rule sets one), the day the
    observation ends, the examination days, and the day the owner's confinement ends (None: no
    such rule)."""

    places_allowed: tuple[PlaceAllowed, ...]
    delivery_deadline: datetime | None
    observation_ends: date
    examination_days: ExaminationDays
    owner_confinement_ends: date | None = None


@question(
    "bite_quarantine",
    facts=BiteFacts,
    value=BiteQuarantine,
    doc="Quarantine after a bite: place allowed, delivery deadline, observation end, "
    "the three examination days, the owner's confinement.",
)
def bite_quarantine(pack, facts: BiteFacts, on: date, local) -> Decision:
    q: QuarantineSection = pack.quarantine
    cites = [q.place.cite.citation, *(c.citation for c in q.place.also), q.observation.cite.citation]
    cites, notes = [*cites, q.examinations.cite.citation], list(choice_notes(q.place))
    places = [q.place.custodian]
    if q.place.owner_premises == "if_immunized" and facts.currently_immunized:
        places.append("owner_premises")
    delivery = None
    if q.delivery is not None and facts.ordered_at is not None:
        counted = q.delivery.count(facts.ordered_at)
        delivery = counted.day
        cites.insert(0, q.delivery.cite.citation)
        cites += counted.citations
        notes += counted.notes
    observed = q.observation.count(facts.bitten_on)
    ends = observed.day
    notes += observed.notes
    first = facts.isolation_starts_on or facts.bitten_on
    if first < facts.bitten_on:
        raise ValueError(
            f"Isolation starts on {first:%B} {first.day}, {first.year}, before the bite on "
            f"{facts.bitten_on:%B} {facts.bitten_on.day}, {facts.bitten_on.year}: the isolation is counted from "
            f"the bite ({q.observation.cite.citation.section})"
        )
    if q.isolation_period is not None:
        # Cedarburg § 7-1-5(e)(1): "confined and isolated for a period of ten (10) days"
        isolated = q.isolation_period.count(first)
        ends = max(ends, isolated.day)
        cites += [q.isolation_period.cite.citation, *isolated.citations]
        notes += isolated.notes
        notes += [q.isolation_period.choice] if q.isolation_period.choice else []
    if first >= ends:
        raise ValueError(f"isolation_starts_on {first} is not before the observation ends ({ends})")
    examinations = ExaminationDays(
        first,
        date.fromordinal(first.toordinal() + 1),
        date.fromordinal(ends.toordinal() - 1),
        date.fromordinal((first.toordinal() + ends.toordinal()) // 2),
        ends,
    )
    confinement_ends = None
    if q.owner_confinement is not None:
        confined = q.owner_confinement.count(facts.bitten_on)
        confinement_ends = confined.day
        if q.owner_confinement.with_isolation:
            confinement_ends = max(confinement_ends, ends)
        cites += [q.owner_confinement.cite.citation, *confined.citations]
        notes += [n for n in (*choice_notes(q.owner_confinement), *confined.notes) if n not in notes]
    if q.examinations.choice:
        notes.append(q.examinations.choice)
    value = BiteQuarantine(tuple(places), delivery, ends, examinations, confinement_ends)
    return Decision(value, tuple(cites), tuple(notes))


class ExposureFacts(Facts):
    exposed_on: date
    immunized_on_exposure: bool


# "from" is a Python keyword: the window is a typed mapping, its keys as the JSON has them.
VaccinationWindow = TypedDict("VaccinationWindow", {"from": date, "to": date})


@dataclass(frozen=True)
class ExposureQuarantine:
    """Confined until `confined_until`; an animal not immunized on exposure is vaccinated within
    `vaccination_window`; an immunized one is revaccinated `revaccinate` (as soon as possible)."""

    confined_until: date
    vaccination_window: VaccinationWindow | None = None
    revaccinate: Literal["as_soon_as_possible"] | None = None


@question(
    "exposure_quarantine",
    facts=ExposureFacts,
    value=ExposureQuarantine,
    doc="Quarantine after exposure to a rabid animal: 180 days with the vaccination window, "
    "or 60 days and revaccination, by immunization on the exposure date.",
)
def exposure_quarantine(pack, facts: ExposureFacts, on: date, local) -> Decision:
    q: QuarantineSection = pack.quarantine
    if facts.immunized_on_exposure:
        confined = q.exposure_immunized.count(facts.exposed_on)
        value = ExposureQuarantine(confined.day, None, "as_soon_as_possible")
        return Decision(value, (*q.exposure_immunized.citations(), *confined.citations), confined.notes)
    start, end = q.vaccination_window.count(facts.exposed_on)
    confined = q.exposure_not_immunized.count(facts.exposed_on)
    value = ExposureQuarantine(confined.day, VaccinationWindow({"from": start, "to": end.day}))
    cites = (q.exposure_not_immunized.cite.citation, q.vaccination_window.cite.citation)
    return Decision(value, (*cites, *confined.citations, *end.citations), (*confined.notes, *end.notes))


@cache
def _district_species(pack) -> PackValues | None:
    s: QuarantineSection | None = pack.quarantine
    rule = None if s is None else s.district
    return None if rule is None else named_by("quarantine.district", rule, rule.species)


class DistrictFacts(Facts):
    species: Annotated[
        str,
        PackSet(
            "DistrictSpecies",
            _district_species,
            "a species the district quarantine covers",
            other="a species it does not cover: not under the quarantine",
        ),
    ]
    currently_immunized: bool
    tag_attached: bool
    license_tag_attached: bool = False


@dataclass(frozen=True)
class DistrictAnswer:
    """`applies`: the ordinance provides for a district rabies quarantine; `covered`: it names this
    species; `must_be_restrained` unless `exempt`; the notice is posted in `posting_places`."""

    applies: bool
    covered: bool = False
    must_be_restrained: bool = False
    exempt: bool = False
    posting_places: int | None = None


@question(
    "district_quarantine",
    facts=DistrictFacts,
    value=DistrictAnswer,
    doc="Where a district is quarantined for rabies: must this animal be kept confined, "
    "tied, leashed or muzzled, or is it exempt?",
)
def district_quarantine(pack, facts: DistrictFacts, on: date, local) -> Decision:
    q: QuarantineSection = pack.quarantine
    if q is None or q.district is None:
        return Decision(
            DistrictAnswer(applies=False), (), ("this ordinance has no district rabies quarantine provision",)
        )
    cites, notes = list(q.district.citations()), []
    covered = facts.species in q.district.species
    exempt = False
    if covered and q.district_exemption is not None:
        # "exempt ... if a rabies vaccination tag or substitute tag is attached to the dog's or
        # cat's collar": the exemption is cited on both sides, with how the records are read.
        rule = q.district_exemption
        substitute = rule.license_tag_substitutes and facts.license_tag_attached
        exempt = facts.currently_immunized and (facts.tag_attached or substitute)
        cites.append(q.district_exemption.cite.citation)
        if q.district_exemption.choice:
            notes.append(q.district_exemption.choice)
    value = DistrictAnswer(True, covered, covered and not exempt, exempt, q.district.posting_places)
    return Decision(value, tuple(cites), tuple(notes))
