"""How many animals, and the licenses numbers call for: Benton's kennel license (§ 115-3B),
the multiple-dog license (s. 174.053; required in Webster above three dogs, § 98-3B) and
Cedarburg's household limit (§ 7-1-6(f)); and the state's limits on the amounts a municipality
sets itself (`state_limits`: s. 174.05(2), (3) and (5)).

Choices: a dog is "over the age of five months" from the day after its five-month birthday; a
litter's grace under § 7-1-6(f) runs until the day before the young animals' five-month birthday.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from types import MappingProxyType
from typing import Any, Literal

from .amounts import LocalAmounts, amount_at
from .catalogue import Facts, question
from .dates import ONE_DAY, plus
from .decision import Citation, Decision
from .licensing import Species
from .packs import Pack, load_pack
from .schema import Amount, LocalAmount, MonthDay, Period, Provision, Strict, section
from .state_limits import Kind, breaches


class Threshold(Provision):
    more_than: int
    over_age: Period | None = None


class Maximum(Provision):
    at_most: int
    over_age: Period | None = None


class Siting(Provision):
    from_other_structures_ft: int
    from_lot_lines_ft: int
    sq_ft_per_animal: int
    privacy_fence: bool


class Fees(Provision):
    initial: Amount
    renewal: Amount


class Term(Provision):
    expires: MonthDay


@section("kennel")
class KennelSection(Strict):
    required: Threshold | None = None
    individual_licenses_too: Provision | None = None  # the kennel license is in addition to each dog's
    maximum: Maximum | None = None
    siting: Siting | None = None
    fee: Fees | None = None
    term: Term | None = None
    inspection: Provision | None = None  # problems found are corrected before approval


class LitterException(Provision):
    """Pups of a litter kept for no more than `kept_for` from birth are not counted."""

    kept_for: Period


class MultipleDogLicense(Provision):
    """`instead_of_individual_tax`: the license's tax takes the place of each dog's license tax."""

    instead_of_individual_tax: Provision | None = None
    available_above: int | None = None
    required_above: int | None = None
    included_dogs: int
    tax: Amount
    each_additional: Amount
    litter_exception: LitterException | None = None


@section("multiple_dog")
class MultipleDogSection(Strict):
    license: MultipleDogLicense | None = None


class HouseholdLimit(Provision):
    """`over_age`: only animals older than this are counted (Benton § 115-3B: "dogs over the age of
    five months"); `litter_grace`: young of a litter are not counted for this long."""

    species: list[Species]
    more_than: int
    litter_grace: Period | None = None
    over_age: Period | None = None
    zoning_exception: bool = True  # false: the text lets no zoning ordinance allow more


@section("household")
class HouseholdSection(Strict):
    limit: HouseholdLimit | None = None


class KennelFacts(Facts):
    dogs_born_on: list[date]
    renewal: bool = False
    # the license years this premises held a kennel license, not void: given, they decide `renewal`
    # ("subsequent uninterrupted renewals": a license for the year before the one applied for)
    licensed_years: list[int] | None = None
    license_year: int | None = None
    from_other_structures_ft: Decimal | None = None
    from_lot_lines_ft: Decimal | None = None
    kennel_sq_ft: Decimal | None = None
    privacy_fence: bool | None = None


class DogCount(Facts):
    dogs: int  # dogs kept, litter pups not included
    litter_born_on: list[date] = []  # the birth date of each pup of a litter kept


class HouseholdAnimal(Facts):
    species: Species
    born_on: date | None = None
    from_litter: bool = False


class HouseholdFacts(Facts):
    animals: list[HouseholdAnimal]
    zoning_allows_more: bool = False


def _over(born: list[date], age: Period | None, on: date) -> int:
    return len(born) if age is None else sum(1 for b in born if on > plus(b, age))


def _absent(what: str, answer) -> Decision:
    return Decision(answer, (), (f"no {what} under this law",))


@dataclass(frozen=True)
class KennelSiting:
    """Each siting check (§ 115-3B): true met, false not met, null not measured (or, for the
    privacy fence, not required)."""

    from_other_structures: bool | None
    from_lot_lines: bool | None
    space: bool | None
    privacy_fence: bool | None


@dataclass(frozen=True)
class KennelLicenseAnswer:
    """`required` for `dogs_over_age` dogs; `over_limit` above `at_most` where the ordinance caps
    them; the `siting` checks and the kennel's `minimum_sq_ft`; the `fee` (initial or `renewal`,
    `renewal_from` the license history or as stated) and the day it `expires`. A field the
    ordinance does not set is null; `applies` false: this law has no kennel license."""

    applies: bool
    dogs_over_age: int | None = None
    required: bool | None = None
    individual_licenses_due: bool | None = None
    over_limit: bool | None = None
    at_most: int | None = None
    siting: KennelSiting | None = None
    minimum_sq_ft: int | None = None
    renewal: bool | None = None
    renewal_from: Literal["license history", "stated"] | None = None
    fee: Decimal | None = None
    expires: date | None = None


@question(
    "kennel_license",
    facts=KennelFacts,
    value=KennelLicenseAnswer,
    doc="Kennel license: required, over the limit, site checks, fee (initial or renewal), expiry.",
)
def kennel_license(pack: Pack, f: KennelFacts, on: date, local: LocalAmounts) -> Decision:
    k = pack.kennel
    if k is None or k.required is None:
        return _absent("kennel license", KennelLicenseAnswer(applies=False))
    cites, not_set, notes = [k.required.cite.citation], [], []
    over = _over(f.dogs_born_on, k.required.over_age, on)
    renewal = f.renewal
    if f.licensed_years is not None:
        renewal = (f.license_year or on.year) - 1 in f.licensed_years
    value = KennelLicenseAnswer(
        True,
        dogs_over_age=over,
        required=over > k.required.more_than,
        renewal=renewal,
        renewal_from="license history" if f.licensed_years is not None else "stated",
    )
    if k.individual_licenses_too is not None:
        value = replace(value, individual_licenses_due=True)
        cites.append(k.individual_licenses_too.cite.citation)
    if k.maximum is not None:
        over_limit = _over(f.dogs_born_on, k.maximum.over_age, on) > k.maximum.at_most
        value = replace(value, over_limit=over_limit, at_most=k.maximum.at_most)
        cites.append(k.maximum.cite.citation)
    if k.siting is not None:
        s = k.siting
        checks = KennelSiting(
            from_other_structures=None
            if f.from_other_structures_ft is None
            else f.from_other_structures_ft >= s.from_other_structures_ft,
            from_lot_lines=None if f.from_lot_lines_ft is None else f.from_lot_lines_ft >= s.from_lot_lines_ft,
            space=None if f.kennel_sq_ft is None else f.kennel_sq_ft >= s.sq_ft_per_animal * len(f.dogs_born_on),
            privacy_fence=f.privacy_fence if s.privacy_fence else None,
        )
        value = replace(value, siting=checks, minimum_sq_ft=s.sq_ft_per_animal * len(f.dogs_born_on))
        cites.append(s.cite.citation)
    if value.required and k.fee is not None:
        fee, missing = amount_at(k.fee.renewal if renewal else k.fee.initial, on, local, k.fee.cite.citation)
        value = replace(value, fee=fee)
        cites.append(k.fee.cite.citation)
        if missing:
            not_set.append(missing)
            notes.append("the kennel license fee is set by the Village Board and not set here")
    if value.required and k.term is not None:
        value = replace(value, expires=k.term.expires.of(on.year))
        cites.append(k.term.cite.citation)
    return Decision(value, tuple(cites), tuple(notes), tuple(not_set))


@dataclass(frozen=True)
class MultipleDogAnswer:
    """Whether the license is `required` or `available` for `dogs_counted` dogs (litter pups
    within the exception not counted, until `litter_exception_ends`), its `tax` (null until its
    amounts are set) for `included_dogs` plus each of `dogs_over_included`, and the `tags`.
    `individual_taxes_due_under_it` false where the license takes the place of each dog's tax.
    `applies` false: this law has no multiple-dog license."""

    applies: bool
    required: bool = False
    available: bool = False
    tax: Decimal | None = None
    tags: int = 0
    dogs_counted: int | None = None
    litter_pups_not_counted: int = 0
    litter_exception_ends: tuple[date, ...] = ()
    included_dogs: int | None = None
    dogs_over_included: int = 0
    individual_taxes_due_under_it: bool | None = None


@question(
    "multiple_dog_license",
    facts=DogCount,
    value=MultipleDogAnswer,
    doc="Multiple-dog license: available or required, its tax, and the number of tags.",
)
def multiple_dog_license(pack: Pack, f: DogCount, on: date, local: LocalAmounts) -> Decision:
    m = pack.multiple_dog.license if pack.multiple_dog else None
    if m is None:
        return _absent("multiple-dog license", MultipleDogAnswer(applies=False))
    cite = m.cite.citation
    cites, notes = [cite], []
    dogs, waiting, ends = f.dogs, 0, set()
    for born in f.litter_born_on:
        # Webster § 98-3B: "a litter of pups ... may be kept for not more than 10 weeks from birth"
        if m.litter_exception is not None and on <= plus(born, m.litter_exception.kept_for):
            waiting += 1
            ends.add(plus(born, m.litter_exception.kept_for))
        else:
            dogs += 1
    if waiting:
        cites.append(m.litter_exception.cite.citation)
        notes.append(f"{waiting} pup(s) of a litter still within the litter exception are not counted")
    required = m.required_above is not None and dogs > m.required_above
    available = required or (m.available_above is not None and dogs > m.available_above)
    value = MultipleDogAnswer(
        True,
        required=required,
        available=available,
        tags=dogs if available else 0,
        dogs_counted=dogs,
        litter_pups_not_counted=waiting,
        litter_exception_ends=tuple(sorted(ends)),
        included_dogs=m.included_dogs,
        dogs_over_included=max(0, dogs - m.included_dogs) if available else 0,
        # the license's own citation says so
        individual_taxes_due_under_it=False if available and m.instead_of_individual_tax is not None else None,
    )
    if not available:
        return Decision(value, tuple(cites), tuple(notes))
    base, missing_base = amount_at(m.tax, on, local, cite)
    extra = max(0, dogs - m.included_dogs)
    each, missing_each = amount_at(m.each_additional, on, local, cite) if extra else (Decimal(0), None)
    missing = tuple(x for x in (missing_base, missing_each) if x)
    notes += [f"{extra} dog(s) over {m.included_dogs}"] if extra else []
    if not missing and base is not None and each is not None:
        value = replace(value, tax=base + each * extra)
    return Decision(value, tuple(cites), tuple(notes), missing)


@dataclass(frozen=True)
class HouseholdLimitAnswer:
    """`counted` dogs and cats against `more_than`: `over_limit`, unless `zoning_allows_more`
    (then over the number but not the limit); `litter_excepted` young animals not counted, each
    until its day in `litter_allowance_ends`. `applies` false: this law sets no household limit."""

    applies: bool
    counted: int | None = None
    more_than: int | None = None
    over_limit: bool | None = None
    zoning_allows_more: bool = False
    litter_excepted: int = 0
    litter_allowance_ends: tuple[date, ...] = ()


@question(
    "household_limit",
    facts=HouseholdFacts,
    value=HouseholdLimitAnswer,
    doc="Whether a household keeps more dogs and cats than the limit (litters excepted for a time).",
)
def household_limit(pack: Pack, f: HouseholdFacts, on: date, local: LocalAmounts) -> Decision:
    h = pack.household.limit if pack.household else None
    if h is None:
        return _absent("household limit", HouseholdLimitAnswer(applies=False))
    grace = h.litter_grace
    graced = [
        a
        for a in f.animals
        if grace is not None
        and a.species in h.species
        and a.from_litter
        and a.born_on is not None
        and on < plus(a.born_on, grace)
    ]
    # not yet over the age the limit counts from (the day after that birthday, like the kennel's)
    young = [
        a
        for a in f.animals
        if h.over_age is not None
        and a.species in h.species
        and a.born_on is not None
        and on <= plus(a.born_on, h.over_age)
    ]
    counted = sum(1 for a in f.animals if a.species in h.species and a not in graced and a not in young)
    # the last day each young animal is still excepted: the day before it is counted
    ends = sorted({plus(a.born_on, grace) - ONE_DAY for a in graced})
    allowed = f.zoning_allows_more and h.zoning_exception
    over = counted > h.more_than and not allowed
    notes = ("zoning specifically allows more",) if allowed and counted > h.more_than else ()
    if any(a.from_litter for a in f.animals) and h.choice:
        notes += (h.choice,)
    value = HouseholdLimitAnswer(
        True,
        counted=counted,
        more_than=h.more_than,
        over_limit=over,
        zoning_allows_more=allowed and counted > h.more_than,
        litter_excepted=len(graced),
        litter_allowance_ends=tuple(ends),
    )
    return Decision(value, (h.cite.citation,), notes)


@dataclass(frozen=True)
class OutOfLimit:
    """A local amount the state law does not allow: why, and the section that says so."""

    key: str
    message: str
    citation: Citation


def _local_key(amount: Any) -> str | None:
    return amount.local if isinstance(amount, LocalAmount) else None


def fee_schedule_errors(pack: Pack, local: LocalAmounts) -> list[str]:
    """Every state limit a whole fee schedule (`local`: key -> dated amounts) breaks in `pack`,
    each once: the key, the day its amount takes effect, why, and the section with its words.
    Each entry is checked on its own effective day against the schedule's other amounts in force
    that day (`state_limits`), so a rule comparing two amounts is reported on the entry that
    breaks it."""
    errors: list[str] = []
    seen: set[str] = set()
    entries = local.items()
    for on in sorted({d for _, dated in entries for d in dated.starts}):
        in_force = {key: local.at(key, on) for key, _ in entries}
        for key, dated in entries:
            amount = in_force[key]
            if on not in dated.starts or amount is None:
                continue
            others = {k: v for k, v in in_force.items() if k != key}
            for out in state_limits(pack, key, amount, on, others):
                if out.message not in seen:
                    seen.add(out.message)
                    c = out.citation
                    errors.append(f"{key} from {on}: {out.message} ({c.section}: “{c.quote}”)")
    return errors


class TaxCapFacts(Facts):
    """The cap is asked of the law alone: no facts."""


@dataclass(frozen=True)
class TaxCapAnswer:
    """`applies`: the law caps a raised tax; `checked`: Dogtag can check an amount against it
    (false where the cap's figure is one Dogtag does not hold: the notes say which and who checks)."""

    applies: bool
    checked: bool = False


@question(
    "additional_tax_cap",
    facts=TaxCapFacts,
    value=TaxCapAnswer,
    doc="The cap s. 174.05(3) sets on a raised license tax, and whether Dogtag can check a tax against it.",
)
def additional_tax_cap(pack, facts: TaxCapFacts, on: date, local) -> Decision:
    cap = pack.licensing.additional_tax_cap if pack.licensing is not None else None
    if cap is None:
        return Decision(TaxCapAnswer(False), (), ("this law sets no cap on a raised tax",))
    return Decision(TaxCapAnswer(True, False), cap.citations(), (f"not checked: {cap.not_held}",))


def state_limits(
    pack: Pack, key: str, amount: Decimal, on: date, others: Mapping[str, Decimal | None] = MappingProxyType({})
) -> list[OutOfLimit]:
    """Every state limit the local amount `key` = `amount`, in force from `on`, breaks (empty: none).

    `others`: the pack's other local amounts in force on `on` (the fee schedule), for the rules
    that compare two of them. The state figures are the base pack's (`pack.chain[0]`), never a
    municipal override; the check is `state_limits.breaches`, the one the pack loader runs."""
    lic = pack.licensing
    if lic is None:
        return []
    late = lic.late_fee if lic.late_fee is not None and lic.late_fee.held_to_state else None
    keys: dict[Kind, str | None] = {"late_fee": _local_key(late.amount) if late is not None else None}
    if lic.tax is not None:
        keys.update(altered=_local_key(lic.tax.altered), unaltered=_local_key(lic.tax.unaltered))
    entering = next((kind for kind, local in keys.items() if local == key), None)
    if entering is None:
        return []
    amounts: dict[Kind, Decimal | None] = {k: others.get(v) for k, v in keys.items() if v is not None and k != entering}
    amounts[entering] = amount
    state = load_pack(pack.chain[0]).licensing
    return [
        OutOfLimit(key, b.message, b.provision.cite.citation)
        for b in breaches(state, on, amounts, entering)
        if b.kind == entering
    ]
