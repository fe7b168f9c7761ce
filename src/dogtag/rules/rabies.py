"""Rabies vaccination (s. 95.21 and the ordinances that restate it): first vaccination due,
revaccination due, immunization current on a date, and the duty when an animal is brought in.

Choice: "before the date that immunization expires as stated on the certificate" makes the day
before that date the last day to revaccinate; the animal is not currently immunized on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

from .amounts import LocalAmounts
from .catalogue import Facts, question
from .dates import ONE_DAY, plus
from .decision import Decision
from .licensing import Species, SpeciesProvision
from .packs import Pack
from .schema import Cite, Period, Provision, Strict, section
from .spans import choice_notes
from .time import last_day, named_day


class FirstVaccination(Provision):
    age: Period
    within: Period | None = None  # None: by the age itself ("no later than 5 months of age")


class BroughtIn(Provision):
    after_age: Period
    within: Period


class Revaccination(Provision):
    """`after_initial_cite`: the words setting the first revaccination after the initial one, cited
    where that period decides (an initial vaccination)."""

    after_initial: Period
    without_expiry_date: Period
    after_initial_cite: Cite | None = None


class SpeciesInterval(Provision):
    """A species' own revaccination interval. `whatever_the_certificate` (Cedarburg's cats): the
    interval binds even when the certificate states a later expiry date."""

    species: Species
    without_expiry_date: Period
    whatever_the_certificate: bool = False


@section("rabies")
class RabiesSection(Strict):
    species: SpeciesProvision | None = None
    first_vaccination: FirstVaccination | None = None
    brought_in: BroughtIn | None = None
    revaccination: Revaccination | None = None
    species_interval: list[SpeciesInterval] = []
    # The municipality's own rabies section, referred to but not in the text held (Webster
    # § 98-2): its answers are the state's, said so beside each.
    local_text_missing: Provision | None = None


def _with_missing(pack: Pack, decision: Decision) -> Decision:
    """`decision`, citing the missing local section and saying that the figures are the state's."""
    gone = pack.rabies.local_text_missing
    if gone is None:
        return decision
    cites = (*decision.citations, gone.cite.citation)
    return Decision(decision.value, cites, (*decision.notes, *choice_notes(gone)), decision.not_set)


class FirstFacts(Facts):
    species: Species = "dog"
    born_on: date
    brought_in_on: date | None = None  # obtained or brought into the municipality
    current_certificate: bool = False


class VaccinationFacts(Facts):
    species: Species = "dog"
    vaccinated_on: date
    initial: bool = False
    certificate_expires_on: date | None = None


def _not_covered(pack: Pack, species: str, answer: type) -> Decision | None:
    r = pack.rabies
    if r.species is not None and species not in r.species.species:
        note = f"no {species} vaccination duty under this law"
        return Decision(answer(applies=False), (r.species.cite.citation,), (note,))
    return None


@dataclass(frozen=True)
class FirstVaccinationDue:
    """`due` the last day for the first vaccination, by `reason`: the animal's age (reached on
    `age_reached_on`), being brought in, or none due now (brought in with a current certificate).
    `applies` false: this law sets no vaccination duty for the species."""

    applies: bool
    due: date | None = None
    reason: Literal["age", "brought_in", "current_certificate"] | None = None
    age_reached_on: date | None = None


@question(
    "rabies_first_vaccination_due",
    facts=FirstFacts,
    value=FirstVaccinationDue,
    doc="Last day for the first rabies vaccination (by age, or after being brought in).",
)
def first_vaccination_due(pack: Pack, f: FirstFacts, on: date, local: LocalAmounts) -> Decision:
    r = pack.rabies
    if (skip := _not_covered(pack, f.species, FirstVaccinationDue)) is not None:
        return skip
    first = r.first_vaccination
    age_day = plus(f.born_on, first.age)
    counted = last_day(age_day, first.within, not_moved=first.not_moved) if first.within else None
    counted = counted or named_day(age_day, not_moved=first.not_moved)
    value = FirstVaccinationDue(True, counted.day, "age", age_day)
    cites, notes = [first.cite.citation, *counted.citations], counted.notes
    bi = r.brought_in
    if bi is not None and f.brought_in_on is not None and f.brought_in_on >= plus(f.born_on, bi.after_age):
        cites, notes = [bi.cite.citation], ()
        if f.current_certificate:
            return Decision(
                FirstVaccinationDue(True, None, "current_certificate", age_day),
                tuple(cites),
                ("brought in with a current certificate: no vaccination due now",),
            )
        counted = last_day(f.brought_in_on, bi.within, not_moved=bi.not_moved)
        value = FirstVaccinationDue(True, counted.day, "brought_in", age_day)
        cites, notes = [*cites, *counted.citations], counted.notes
    return _with_missing(pack, Decision(value, tuple(cites), notes))


def revaccination_due(pack: Pack, f: VaccinationFacts) -> tuple[date, list, tuple[str, ...]]:
    """The last day to revaccinate, its citations and notes (s. 990.001(4), or why not moved)."""
    r = pack.rabies.revaccination
    cites = [r.cite.citation]
    special = next((s for s in pack.rabies.species_interval if s.species == f.species), None)
    if f.certificate_expires_on is not None:
        due = f.certificate_expires_on - ONE_DAY
        if special is not None and special.whatever_the_certificate:
            due = min(due, plus(f.vaccinated_on, special.without_expiry_date))
            cites.append(special.cite.citation)
    else:
        period = r.without_expiry_date
        if special is not None:
            period = special.without_expiry_date
            cites.append(special.cite.citation)
        due = plus(f.vaccinated_on, period)
    if f.initial:
        after_initial = plus(f.vaccinated_on, r.after_initial)
        if r.after_initial_cite is not None and after_initial <= due:
            cites.insert(0, r.after_initial_cite.citation)
        due = min(due, after_initial)
    counted = named_day(due, not_moved=r.not_moved)
    return counted.day, [*cites, *counted.citations], counted.notes


@dataclass(frozen=True)
class RevaccinationDue:
    """`last_day` to revaccinate `after` an initial vaccination or a later one. `applies` false:
    this law sets no vaccination duty for the species."""

    applies: bool
    last_day: date | None = None
    after: Literal["initial_vaccination", "vaccination"] | None = None
    certificate_expires_on: date | None = None


@question(
    "rabies_revaccination_due",
    facts=VaccinationFacts,
    value=RevaccinationDue,
    doc="Last day to revaccinate after a vaccination (initial: within 1 year; then the certificate's date).",
)
def _revaccination_due(pack: Pack, f: VaccinationFacts, on: date, local: LocalAmounts) -> Decision:
    if (skip := _not_covered(pack, f.species, RevaccinationDue)) is not None:
        return skip
    due, cites, notes = revaccination_due(pack, f)
    after = "initial_vaccination" if f.initial else "vaccination"
    value = RevaccinationDue(True, due, after, f.certificate_expires_on)
    return _with_missing(pack, Decision(value, tuple(cites), notes))


@dataclass(frozen=True)
class RabiesCurrent:
    """`current` on the day asked: immunized from the vaccination through `through`. `applies`
    false: this law sets no vaccination duty for the species."""

    applies: bool
    current: bool | None = None
    through: date | None = None


@question(
    "rabies_current",
    facts=VaccinationFacts,
    value=RabiesCurrent,
    doc="Whether the animal is currently immunized on a date, given its latest vaccination.",
)
def rabies_current(pack: Pack, f: VaccinationFacts, on: date, local: LocalAmounts) -> Decision:
    if (skip := _not_covered(pack, f.species, RabiesCurrent)) is not None:
        return skip
    due, cites, _ = revaccination_due(pack, f)
    current = f.vaccinated_on <= on <= due
    notes = () if current else (f"immunization current from {f.vaccinated_on} through {due}",)
    return _with_missing(pack, Decision(RabiesCurrent(True, current, due), tuple(cites), notes))
