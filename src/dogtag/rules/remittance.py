"""Where a license's money goes (ss. 174.07(3)(c), 174.08): the state-minimum part the municipal
treasurer pays the county treasurer, the additional local tax and late fee kept locally, and
what a collecting official who is not a full-time salaried employee may retain per license.

Choices (also written beside the provisions in wi.yaml):
- The state-minimum part of a tax is the s. 174.05(2) minimum for the dog's neutered/spayed
  status on the day of issue, halved when the license tax was (the half-tax rule applies to
  "these amounts", the minimums), and never more than the tax charged. A free license has none.
- The collecting official's retained amount comes out of the state-minimum part paid over, and
  only from a license whose tax was collected (nothing is retained from a free license).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from pydantic import Field

from .catalogue import Facts, question
from .decision import CENT, ZERO, Decision
from .licensing import Species, licensable_on, license_year_bounds
from .packs import load_pack
from .schema import Dated, Money, Provision, Strict, section
from .spans import choice_notes


class Retained(Provision):
    per_license: Dated[Money]


class RemittedSpecies(Provision):
    """The species whose license taxes pay a state-minimum part to the county; another species'
    license (Cedarburg's cats) is the municipality's alone."""

    species: list[Species]


class Payee(Provision):
    """Whom the municipal treasurer pays the state part: the county treasurer (s. 174.08(1)) or,
    where an agreement under s. 174.10(2) is in effect, the intergovernmental commission
    (s. 174.08(2)); `name` as the municipality's papers show it. `pays`: the state-minimum part
    (s. 174.08(1)) or the whole tax, the additional local tax included (s. 174.08(2)'s "all dog
    license taxes")."""

    to: Literal["county_treasurer", "intergovernmental_commission"]
    name: str
    pays: Literal["state_minimum", "whole_tax"] = "state_minimum"


@section("remittance")
class RemittanceSection(Strict):
    remitted_species: RemittedSpecies | None = None
    collector_retains: Retained | None = None
    county_payment: Provision | None = None
    clerk_report: Provision | None = None
    payee: Payee | None = None
    commission_payment: Provision | None = None  # s. 174.08(2), cited where the commission is paid


class LicenseCharged(Facts):
    kind: Literal["individual", "multiple-dog"] = "individual"
    species: Species = "dog"
    altered: bool = False
    tax: Money
    late_fee: Money = ZERO
    free_license: bool = False
    born_on: date | None = None  # to tell whether the tax was halved (s. 174.05(2))
    license_year: int | None = None
    dogs_authorized: int | None = Field(default=None, ge=0)
    collector_full_time_salaried: bool = True


# Why a license pays no state-minimum part: a species the county takes nothing from, no tax
# collected (a free license), or no state multiple-dog figure to take it from.
NoStatePart = Literal["species_kept_locally", "no_tax_collected", "no_state_multiple_dog_figure"]


@dataclass(frozen=True)
class _StatePart:
    amount: Decimal
    cites: list
    notes: list[str]
    none_because: NoStatePart | None = None
    half_minimum: bool = False
    tax_below_minimum: bool = False


def _state_part(pack, f: LicenseCharged, on: date) -> _StatePart:
    lic = pack.licensing
    remitted = pack.remittance.remitted_species if pack.remittance is not None else None
    if remitted is not None and f.species not in remitted.species:
        note = f"a {f.species} license pays nothing to the county: all of it is kept locally"
        return _StatePart(ZERO, [remitted.cite.citation], [note], "species_kept_locally")
    if f.free_license or f.tax <= ZERO:
        return _StatePart(ZERO, [], ["no tax collected: no state-minimum part"], "no_tax_collected")
    if f.kind == "multiple-dog":
        # The state's figure, not a local one the municipal pack may put in its place.
        state = load_pack(pack.chain[0])
        md = state.multiple_dog.license if state.multiple_dog else None
        if md is None or not isinstance(md.tax, Dated) or not isinstance(md.each_additional, Dated):
            return _StatePart(ZERO, [], ["no state multiple-dog figure in the pack"], "no_state_multiple_dog_figure")
        dogs = f.dogs_authorized or 0
        part = md.tax.at(on) + max(0, dogs - md.included_dogs) * md.each_additional.at(on)
        return _StatePart(min(part, f.tax), [md.cite.citation], [], tax_below_minimum=part > f.tax)
    minimum = lic.minimum_tax
    part = (minimum.altered if f.altered else minimum.unaltered).at(on) or ZERO
    cites, notes, half = [minimum.cite.citation], [], False
    if lic.half_tax is not None and f.born_on is not None and f.license_year is not None:
        start, end = license_year_bounds(pack, f.license_year)
        due = licensable_on(pack, f.born_on)
        if start <= due <= end and due > lic.half_tax.after.of(f.license_year):
            part = (part * lic.half_tax.fraction).quantize(CENT, rounding=ROUND_HALF_UP)
            cites.append(lic.half_tax.cite.citation)
            notes.append("one-half of the minimum: licensable age reached after the half-tax date")
            half = True
    below = part > f.tax
    if below:
        part = f.tax
        notes.append("the tax charged is below the minimum; all of it is the state part")
    return _StatePart(part, cites, notes, half_minimum=half, tax_below_minimum=below)


@dataclass(frozen=True)
class Remittance:
    """One license's money: the `state_minimum` part and what is paid over (`to_county`, to `payee`,
    after what the collecting official retains, `collector_retained`: the state-minimum part, or the
    whole tax where the payee's reading says so) and what is kept locally. `no_state_part` says why
    there is none; `half_minimum`: the minimum was halved as the tax was; `tax_below_minimum`:
    the tax charged was less than the minimum, so all of it is the state part."""

    state_minimum: Decimal
    local_additional: Decimal
    late_fee_local: Decimal
    collector_retained: Decimal
    to_county: Decimal
    kept_locally: Decimal
    no_state_part: NoStatePart | None = None
    half_minimum: bool = False
    tax_below_minimum: bool = False
    payee: str | None = None


@question(
    "license_remittance",
    facts=LicenseCharged,
    value=Remittance,
    doc="Where one license's money goes: the state-minimum part paid to the county treasurer (or the "
    "intergovernmental commission, s. 174.08(2)), "
    "the additional local tax and late fee kept locally, and the amount a collecting official "
    "who is not a full-time salaried employee may retain (ss. 174.07(3)(c), 174.08).",
)
def license_remittance(pack, f: LicenseCharged, on: date, local) -> Decision:
    s: RemittanceSection | None = pack.remittance
    part = _state_part(pack, f, on)
    state_part, cites, notes = part.amount, part.cites, part.notes
    retained = ZERO
    if s is not None and s.collector_retains is not None and state_part > ZERO:
        if not f.collector_full_time_salaried:
            retained = min(s.collector_retains.per_license.at(on) or ZERO, state_part)
        cites.append(s.collector_retains.cite.citation)
    if s is not None and s.county_payment is not None:
        cites.append(s.county_payment.cite.citation)
    payee = s.payee if s is not None else None
    if payee is not None:
        cites.append(payee.cite.citation)
        notes.extend(choice_notes(payee))
        if payee.to == "intergovernmental_commission" and s.commission_payment is not None:
            cites.append(s.commission_payment.cite.citation)
    if pack.licensing.late_fee is not None and f.late_fee > ZERO:
        cites.append(pack.licensing.late_fee.cite.citation)
    paid_over = state_part
    if payee is not None and payee.pays == "whole_tax" and part.none_because is None:
        paid_over = max(f.tax, state_part)
    value = Remittance(
        state_minimum=state_part,
        local_additional=f.tax - state_part,
        late_fee_local=f.late_fee,
        collector_retained=retained,
        to_county=paid_over - retained,
        kept_locally=f.tax - paid_over + f.late_fee,
        no_state_part=part.none_because,
        half_minimum=part.half_minimum,
        tax_below_minimum=part.tax_below_minimum,
        payee=payee.name if payee is not None else None,
    )
    return Decision(value, tuple(cites), tuple(notes))
