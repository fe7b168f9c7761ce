"""Who must license, the license tax, the late fee and the license year (ch. 174 and the
ordinances' license sections).

Choices on ambiguous text (each also written beside its provision in the packs):
- A dog "becomes five months of age" on its five-month birthday (`licensable_on`); the license
  is due "on or before" that day, and the dog is "more than five months of age" from the next
  day. A birthday past the end of a shorter month lands on its last day.
- "Within 30 days of acquiring" counts under s. 990.001(4): the day of acquisition is excluded,
  the 30th day is the last (June 1 -> July 1), moved past a Sunday or legal holiday.
- The "prior to April 1" trigger applies to a dog the owner already had, at licensable age,
  before the license year began; dogs acquired or coming of age during the year answer to the
  30-day and licensable-age triggers instead.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, lru_cache
from typing import Literal, get_args

from .amounts import LocalAmounts, amount_at
from .catalogue import Facts, question
from .dates import ONE_DAY, plus
from .decision import CENT, ZERO, Citation, Decision, NotSet
from .packs import Pack, load_pack
from .schema import Amount, Dated, LocalAmount, Money, MonthDay, Period, Provision, Strict, section
from .time import Counted, last_day, named_day, on_paper

# a late-fee trigger: (name, last day, note, citations of a move under s. 990.001(4))
LateTrigger = tuple[str, date, str, tuple[Citation, ...]]

Species = Literal["dog", "cat"]
Training = Literal["lead_blind_or_deaf", "support_mobility", "service"]
# Why this law licenses no such animal: not a species it licenses, or kept only for education or science.
Exclusion = Literal["species_not_licensed", "kept_only_for_education_or_science"]
Trigger = Literal["renewal", "acquisition", "licensable_age"]
# Where the tax comes from: the schedule (local or state), the state minimum until the clerk sets a
# local tax, the state minimum because the local tax is below it, or a free license (s. 174.055).
TaxBasis = Literal["tax", "state_minimum_until_set", "state_minimum_floor", "free_license"]
NoTax = Literal["local_amount_not_set", "no_tax_in_force"]


class SpeciesProvision(Provision):
    species: list[Species]


class LicensableAge(Provision):
    age: Period


class LicenseYear(Provision):
    starts: MonthDay
    ends: MonthDay


class Tax(Provision):
    altered: Amount
    unaltered: Amount


class MinimumTax(Provision):
    altered: Dated[Money]
    unaltered: Dated[Money]


class HalfTax(Provision):
    """The tax times `fraction` (one-half) if the animal became licensable age after `after`."""

    after: MonthDay
    fraction: Decimal


class TaxCap(Provision):
    """A cap on a raised tax whose figure Dogtag does not hold: `not_held` says which figures and
    who checks the cap instead (s. 174.05(3): the previous year's cost, less refunds)."""

    not_held: str


class LocalHalf(Provision):
    """Whether s. 174.05(2)'s one-half (licensable age after July 1) `halves` a local fee-schedule
    tax as it halves the state minimum (a reading: the other keeps the local tax whole)."""

    halves: bool = True


KEPT_WHOLE_NOTE = (
    "the local tax is not halved: s. 174.05(2)'s 'one-half of these amounts' is read as the state "
    "minimums only, and a tax the municipality sets under s. 174.05(3) is charged whole"
)


class LateFee(Provision):
    """`held_to_state`: a local figure is held to the fee s. 174.05(5) fixes (checked where it is
    set); false where a reading lets the municipality's board establish its own."""

    amount: Amount
    renewal_before: MonthDay
    acquired_within: Period
    by_licensable_age: bool = True
    held_to_state: bool = True


class FreeLicense(Provision):
    trained_to: list[Training]


class LateFeeOnFreeLicense(Provision):
    """Whether the late fee is `charged` on a free license (a dog exempt from the license tax) whose
    owner obtains it after the late-fee trigger's last day; cited with every late fee or charges
    of a free license, where the pack says it."""

    charged: bool


class NotRequired(Provision):
    """Animals kept only for educational or scientific purposes need no license."""

    kept_only_for_education_or_science: bool = True


class Contents(Provision):
    items: list[str]


class ReturnBy(Provision):
    by: MonthDay


class IssuingOffice(Provision):
    """The office the ordinance names to issue the license, in its words ("the City Treasurer
    shall complete and issue to the owner a license"): the title printed on the license and the
    receipt."""

    office: str


@section("licensing")
class LicensingSection(Strict):
    species: SpeciesProvision | None = None
    licensable_age: LicensableAge | None = None
    license_year: LicenseYear | None = None
    minimum_tax: MinimumTax | None = None
    tax: Tax | None = None
    half_tax: HalfTax | None = None
    half_tax_on_local_tax: LocalHalf | None = None  # the reading that halves a fee-schedule tax too
    additional_tax: Provision | None = None  # s. 174.05(3): a higher local tax, intact above altered
    additional_tax_cap: TaxCap | None = None  # s. 174.05(3): the raise's cap, a figure Dogtag does not hold
    late_fee: LateFee | None = None
    free_license: list[FreeLicense] = []
    late_fee_on_free_license: LateFeeOnFreeLicense | None = None
    not_required: NotRequired | None = None
    license_states: Contents | None = None
    tag_bears: Contents | None = None
    requires_current_rabies: Provision | None = None
    unused_tags_return: ReturnBy | None = None
    issuing_office: IssuingOffice | None = None


# --- questions -----------------------------------------------------------------------------


class Animal(Facts):
    species: Species = "dog"
    born_on: date
    altered: bool = False
    acquired_on: date | None = None  # None: the owner has had it since before it was licensable
    trained_to: Training | None = None
    kept_only_for_education_or_science: bool = False
    license_year: int | None = None  # default: the license year that contains `on`


class Issue(Facts):
    issued_on: date
    license_year: int | None = None


class NoFacts(Facts):
    pass


@dataclass(frozen=True, slots=True)
class LicenseTax:
    """The license tax. `applies` false: this law licenses no such animal (`exclusion` says why).
    `amount` None: `no_tax` says why (the fee schedule has none set, or none is in force that day).
    `basis`: where the amount comes from; `half_tax`: one-half, the animal reached licensable age
    after the half-tax date."""

    applies: bool
    amount: Decimal | None = None
    basis: TaxBasis | None = None
    half_tax: bool = False
    no_tax: NoTax | None = None
    exclusion: Exclusion | None = None


@dataclass(frozen=True, slots=True)
class LateFeeDue:
    """`amount` due (0.00 when none; None when due and the fee schedule has none set), the
    `trigger` that makes it due and `deadline`, that trigger's last day to license without it
    (given before it has passed too). `applies` false: this law licenses no such animal."""

    applies: bool
    amount: Decimal | None
    trigger: Trigger | None = None
    deadline: date | None = None
    exclusion: Exclusion | None = None


@dataclass(frozen=True, slots=True)
class LicenseCharges:
    """license_tax and late_fee together: `tax` and `late_fee` (`trigger` when one is due) and
    their `total`, with the tax's `basis`, `half_tax`, `no_tax` and `exclusion` as license_tax
    answers them. The late fee's last day is late_fee's `deadline`."""

    applies: bool
    tax: Decimal | None
    late_fee: Decimal | None
    total: Decimal | None
    trigger: Trigger | None = None
    basis: TaxBasis | None = None
    half_tax: bool = False
    no_tax: NoTax | None = None
    exclusion: Exclusion | None = None


# One answer per exclusion, shared: the hot path builds nothing for an excluded animal.
_EXCLUDED = {
    "license_tax": {k: LicenseTax(False, exclusion=k) for k in get_args(Exclusion)},
    "late_fee": {k: LateFeeDue(False, ZERO, exclusion=k) for k in get_args(Exclusion)},
    "license_charges": {k: LicenseCharges(False, None, ZERO, None, exclusion=k) for k in get_args(Exclusion)},
}


def licensable_on(pack: Pack, born_on: date) -> date:
    """The day the animal "becomes five months of age" (the pack's licensable age)."""
    return _terms_of(pack).due(born_on)


def license_year_of(pack: Pack, on: date) -> int:
    return on.year if on >= pack.licensing.license_year.starts.of(on.year) else on.year - 1


@lru_cache(maxsize=4096)
def license_year_bounds(pack: Pack, year: int) -> tuple[date, date]:
    ly = pack.licensing.license_year
    start, end = ly.starts.of(year), ly.ends.of(year)
    return start, (end if end >= start else ly.ends.of(year + 1))


# --- the license tax and late fee, worked out once per pack (_PackTerms), license year (_Year)
# and day (_Day); per animal only its own dates are compared.

FREE_NOTE = "free license: exempt from the license tax"
NO_LATE_FEE_NOTE = "free license: no late fee is charged on a license with no tax"


class _Memo(dict):
    """{key: make(key)}, made on first use; cleared when it holds more than `limit` entries (one per
    distinct date: the default is a calendar's worth many times over)."""

    __slots__ = ("make", "limit")

    def __init__(self, make, limit: int = 100_000):
        super().__init__()
        self.make, self.limit = make, limit

    def __missing__(self, key):
        if len(self) > self.limit:
            self.clear()
        value = self[key] = self.make(key)
        return value


class _PackTerms:
    """The pack's licensing provisions as plain values and prebuilt citation tuples; `due`
    (licensable_on), `acquisition` and `by_age` (their late-fee triggers) remembered per date."""

    def __init__(self, pack: Pack):
        lic = pack.licensing
        self.species = frozenset(lic.species.species)
        self.not_required = lic.not_required.cite.citation if lic.not_required is not None else None
        # trained_to -> the first free-license provision that names it (written last, so it stays)
        self.free = {t: free.cite.citation for free in reversed(lic.free_license) for t in free.trained_to}
        lf = lic.late_fee
        self.late_cites = (lf.cite.citation,)
        # `until_set: state_amount`: the state pack's own late fee, until the clerk enters one
        until_state = isinstance(lf.amount, LocalAmount) and lf.amount.until_set == "state_amount"
        self.state_late = load_pack(pack.chain[0]).licensing.late_fee if until_state else None
        self.by_licensable_age = lf.by_licensable_age
        age, within, species_cite = lic.licensable_age.age, lf.acquired_within, lic.species.cite.citation
        self.due = _Memo(lambda born: plus(born, age)).__getitem__
        self.acquisition = _Memo(lambda acquired: _trigger_of("acquisition", last_day(acquired, within))).__getitem__
        self.by_age = _Memo(lambda due: _trigger_of("licensable_age", named_day(due))).__getitem__
        self._not_licensed = _Memo(
            lambda species: (f"no {species} license under this law", species_cite, "species_not_licensed")
        )
        self._kept = (
            "kept only for educational or scientific purposes: no license required",
            self.not_required,
            "kept_only_for_education_or_science",
        )

    def exclusion(self, species: str, kept: bool) -> tuple[str, Citation, Exclusion] | None:
        """(note, citation, exclusion) when this law licenses no such animal."""
        if species not in self.species:
            return self._not_licensed[species]
        if kept and self.not_required is not None:
            return self._kept
        return None


def _trigger_of(name: str, counted: Counted) -> LateTrigger:
    last = counted.day
    note = f"{name}: the last day to license without a late fee was {last:%B} {last.day}, {last.year}"
    if counted.moved:
        note += f" ({on_paper(counted.counted)} is not a secular day: moved under s. 990.001(4)(b))"
    return name, last, note, counted.citations


_terms_of = cache(_PackTerms)


class _Year:
    """One pack's license year: its bounds, the renewal trigger, the half-tax threshold and notes."""

    def __init__(self, pack: Pack, year: int):
        lic = pack.licensing
        self.start, self.end = license_year_bounds(pack, year)
        self.renewal = _trigger_of("renewal", named_day(lic.late_fee.renewal_before.of(year) - ONE_DAY))
        self.half_after = after = lic.half_tax.after.of(year) if lic.half_tax is not None else None
        self.half_note = _Memo(lambda due: f"licensable age reached on {due}, after {after}: one-half").__getitem__


_year = lru_cache(maxsize=4096)(_Year)


def _trigger(terms: _PackTerms, y: _Year, due: date, acquired: date | None) -> LateTrigger | None:
    start = y.start
    if due < start and (acquired is None or acquired < start):
        return y.renewal
    if acquired is not None and acquired >= start and due <= acquired:
        return terms.acquisition(acquired)
    if terms.by_licensable_age and start <= due <= y.end and (acquired is None or acquired < due):
        return terms.by_age(due)
    return None


@dataclass(frozen=True, slots=True, eq=False)
class _Late:
    """The late fee as it reaches a license on one day: its citations (a free license's with the
    provision that says whether it is charged, where the pack says), amount, notes and amounts
    not set; `waived`: a free license on which it is not charged."""

    cites: tuple[Citation, ...]
    amount: Decimal | None
    notes: tuple[str, ...] = ()
    not_set: tuple[NotSet, ...] = ()
    waived: bool = False

    def past(self, trigger: LateTrigger) -> tuple[str | None, tuple[str, ...], tuple[NotSet, ...]]:
        """Past `trigger`'s last day: the trigger the answer names (None: no late fee), the notes
        and the amounts not set."""
        if self.waived:
            return None, (NO_LATE_FEE_NOTE,), ()
        return trigger[0], (trigger[2], *self.notes), self.not_set


@dataclass(eq=False)
class _Tax:
    """The license tax in force on a day for an altered or unaltered animal (or a free license):
    license_tax's value, citations, notes and amounts not set, the late fee as it reaches that
    license, and the tax halved (s. 174.05(2)) where the pack halves it."""

    value: LicenseTax
    cites: tuple[Citation, ...]
    notes: tuple[str, ...]
    late: _Late
    not_set: tuple[NotSet, ...] = ()
    halved: _Tax | None = None

    def __post_init__(self):
        # license_charges' citations, and its value by the late-fee trigger it names (None: no late fee due)
        self.charges_cites = self.cites + tuple(c for c in self.late.cites if c not in self.cites)
        tax, late = self.value, self.late.amount

        def charges(trigger: str | None) -> LicenseCharges:
            fee = ZERO if trigger is None else late
            total = None if tax.amount is None or fee is None else tax.amount + fee
            return LicenseCharges(True, tax.amount, fee, total, trigger, tax.basis, tax.half_tax, tax.no_tax)

        self.charges = _Memo(charges)


class _Day:
    """What one pack charges on one day (local amounts as the clerk has set them)."""

    def __init__(self, pack: Pack, local: LocalAmounts, on: date):
        self.terms = terms = _terms_of(pack)
        self.on = on
        lic = pack.licensing
        self.year = _year(pack, license_year_of(pack, on))
        amount, missing = amount_at(lic.late_fee.amount, on, local, terms.late_cites[0])
        cites, notes = terms.late_cites, ()
        state = terms.state_late
        if missing and state is not None and state.amount.at(on) is not None:
            amount, missing = state.amount.at(on), None
            cites += (state.cite.citation,)
            notes = (f"no local late fee in the fee schedule on {on}: the state's late fee is the late fee",)
        self.late = late = _Late(cites, amount, notes, (missing,) if missing else ())
        self.tax = (self._tax(lic, on, local, False), self._tax(lic, on, local, True))
        rule = lic.late_fee_on_free_license
        if rule is not None:
            charged = rule.charged
            late = replace(late, cites=cites + rule.citations(), amount=amount if charged else ZERO, waived=not charged)
        free = LicenseTax(True, ZERO, "free_license")
        by_cite = {cite: _Tax(free, (cite,), (FREE_NOTE,), late) for cite in set(terms.free.values())}
        self.free = {trained: by_cite[cite] for trained, cite in terms.free.items()}

    def tax_for(self, species: str, trained: Training | None, altered: bool) -> _Tax:
        """The tax in force for an animal: a free license's where its training exempts it."""
        return self.free.get(trained, self.tax[altered]) if species == "dog" else self.tax[altered]

    def _tax(self, lic, on: date, local: LocalAmounts, altered: bool) -> _Tax:
        tax, minimum = lic.tax or lic.minimum_tax, lic.minimum_tax
        cites = (tax.cite.citation,)
        chosen = tax.altered if altered else tax.unaltered
        amount, missing = amount_at(chosen, on, local, cites[0])
        notes, basis = (), "tax"
        floor = (minimum.altered if altered else minimum.unaltered).at(on) if minimum is not None else None
        if missing and getattr(chosen, "until_set", None) == "state_minimum" and minimum is not None:
            amount, missing, basis = floor, None, "state_minimum_until_set"
            cites += (minimum.cite.citation,)
            notes = (f"no local tax in the fee schedule on {on}: the state minimum is the tax",)
        if missing:
            note = f"the license tax is a local amount not set for {on}"
            return _Tax(LicenseTax(True, no_tax="local_amount_not_set"), cites, (note,), self.late, (missing,))
        if amount is None:
            note = f"no license tax in force on {on}"
            return _Tax(LicenseTax(True, no_tax="no_tax_in_force"), cites, (note,), self.late)
        if tax is not minimum and floor is not None and amount < floor:
            amount, basis = floor, "state_minimum_floor"
            cites += (minimum.cite.citation,)
            notes = ("the local tax is below the state minimum; the minimum applies",)
        half, halved = lic.half_tax, None
        if half is not None:
            reading = lic.half_tax_on_local_tax
            local_tax = reading is not None and isinstance(chosen, LocalAmount)
            # the reading that s. 174.05(2)'s one-half does not reach a local tax
            keep_whole = local_tax and basis == "tax" and not reading.halves
            half_amount = amount if keep_whole else (amount * half.fraction).quantize(CENT, rounding=ROUND_HALF_UP)
            half_cites = cites + (half.cite.citation, *((reading.cite.citation,) if local_tax else ()))
            half_notes = notes + ((KEPT_WHOLE_NOTE,) if keep_whole else ())
            halved = _Tax(LicenseTax(True, half_amount, basis, not keep_whole), half_cites, half_notes, self.late)
        return _Tax(LicenseTax(True, amount, basis), cites, notes, self.late, halved=halved)


_day = lru_cache(maxsize=8192)(_Day)


def late_fee_trigger(pack: Pack, a: Animal, on: date) -> LateTrigger | None:
    """Which of the three late-fee triggers binds this animal in its license year (a LateTrigger).

    "renewal": owned at licensable age before the license year began, licensed on or after April 1;
    "acquisition": acquired at licensable age during the year, not licensed within 30 days;
    "licensable_age": came of age in the owner's hands, not licensed on or before that day.
    """
    terms = _terms_of(pack)
    y = _year(pack, a.license_year or license_year_of(pack, on))
    return _trigger(terms, y, terms.due(a.born_on), a.acquired_on)


def period_words(period: Period) -> str:
    n, unit = next(
        (n, u) for n, u in ((period.days, "day"), (period.months, "month"), (period.years, "year")) if n is not None
    )
    return f"{n} {unit}{'s' if n != 1 else ''}"


@lru_cache(maxsize=256)
def late_fee_trigger_label(pack: Pack, trigger: str) -> str:
    """Why a late fee is due, in the pack's own figures ("not licensed before April 1"), for the
    clerk's and the resident's screens; templates never carry the dates or periods themselves."""
    lf = pack.licensing.late_fee
    return {
        "renewal": f"not licensed before {lf.renewal_before.of(2001):%B} {lf.renewal_before.day}",
        "acquisition": f"not licensed within {period_words(lf.acquired_within)} of acquiring",
        "licensable_age": f"not licensed by {period_words(pack.licensing.licensable_age.age)} of age",
    }.get(trigger, trigger)


def _paid(tax: _Tax, half: str | None) -> tuple[_Tax, tuple[str, ...]]:
    """The tax an animal pays and its notes: halved where its licensable-age day halves it (`half`,
    that day's note), or kept whole on the reading that s. 174.05(2)'s one-half does not reach a
    local tax, with that reading's note in place of the day's."""
    if half is None:
        return tax, tax.notes
    tax = tax.halved
    return tax, tax.notes + ((half,) if tax.value.half_tax else ())


def _tax_answer(day: _Day, tax: _Tax, half: str | None, trigger) -> Decision:
    tax, notes = _paid(tax, half)
    return Decision(tax.value, tax.cites, notes, tax.not_set)


def _late_answer(day: _Day, late: _Late, half, trigger: LateTrigger | None) -> Decision:
    if trigger is None:
        return Decision(LateFeeDue(True, ZERO), late.cites, ())
    cites = late.cites + trigger[3]
    if day.on <= trigger[1]:
        return Decision(LateFeeDue(True, ZERO, None, trigger[1]), cites, ())
    name, notes, not_set = late.past(trigger)
    return Decision(LateFeeDue(True, late.amount, name, trigger[1]), cites, notes, not_set)


def _charges_answer(day: _Day, tax: _Tax, half: str | None, trigger: LateTrigger | None) -> Decision:
    """license_tax and late_fee in one: the tax's citations then the late fee's, the tax's notes
    then the late fee's."""
    tax, notes = _paid(tax, half)
    if trigger is None:
        return Decision(tax.charges[None], tax.charges_cites, notes, tax.not_set)
    name, late_notes, not_set = tax.late.past(trigger)
    return Decision(tax.charges[name], tax.charges_cites + trigger[3], notes + late_notes, tax.not_set + not_set)


# How each question composes its answer from the day's prebuilt parts and an animal's classification
# (`classified`): one by one for each animal, in decide_many once for each group.
ANSWER = {"license_tax": _tax_answer, "late_fee": _late_answer, "license_charges": _charges_answer}


def classified(day: _Day, y: _Year, question: str, tax: _Tax, due: date, acquired: date | None) -> tuple:
    """What an animal's facts decide for `question` in license year `y`, given the tax in force for
    it and its licensable-age day: the part its answer reads (the tax; for late_fee the late fee as
    it reaches that license), the half-tax note when that day halves the tax, and the late-fee
    trigger that binds it (None for license_tax, and for license_charges until its last day has
    passed). The one way an animal is classified: the questions below and the batch
    (rules/licensing_many.py) both call it, and animals classified alike get one answer."""
    if question == "late_fee":
        return tax.late, None, _trigger(day.terms, y, due, acquired)
    # one-half (s. 174.05(2)): licensable age reached within the license year, after its half-tax day
    half = y.half_note(due) if tax.halved is not None and y.start <= due <= y.end and due > y.half_after else None
    if question == "license_tax":
        return tax, half, None
    trigger = _trigger(day.terms, y, due, acquired)
    return tax, half, None if trigger is None or day.on <= trigger[1] else trigger


def _excluded(question: str, excluded: tuple[str, Citation, Exclusion]) -> Decision:
    note, cite, why = excluded
    return Decision(_EXCLUDED[question][why], (cite,), (note, note) if question == "license_charges" else (note,))


def _animal_question(name: str, value: type, doc: str):
    """The question `name` on an animal: the day's parts, an exclusion, the license year, the
    classification, composed by ANSWER[name]."""
    answer = ANSWER[name]

    @question(name, facts=Animal, value=value, doc=doc)
    def ask(pack: Pack, a: Animal, on: date, local: LocalAmounts) -> Decision:
        day = _day(pack, local, on)
        excluded = day.terms.exclusion(a.species, a.kept_only_for_education_or_science)
        if excluded:
            return _excluded(name, excluded)
        y = _year(pack, a.license_year) if a.license_year else day.year
        tax = day.tax_for(a.species, a.trained_to, a.altered) if a.trained_to else day.tax[a.altered]
        return answer(day, *classified(day, y, name, tax, day.terms.due(a.born_on), a.acquired_on))

    ask.__name__ = ask.__qualname__ = name
    return ask


license_tax = _animal_question("license_tax", LicenseTax, "The license tax for an animal licensed on a date.")
late_fee = _animal_question(
    "late_fee", LateFeeDue, "The late fee on a date: amount, the trigger that applied, its last day."
)
license_charges = _animal_question(
    "license_charges", LicenseCharges, "License tax plus late fee for a license issued on a date."
)


@dataclass(frozen=True)
class LicenseRequired:
    """`required` for `license_year`; the animal is `licensable_on` that day; `due_by` the last day
    to license without a late fee, under `trigger`. Not required: `reason` says why."""

    required: bool
    license_year: int
    licensable_on: date
    due_by: date | None = None
    trigger: Trigger | None = None
    free_license: bool = False
    reason: Literal["species_not_licensed", "kept_only_for_education_or_science", "not_of_licensable_age"] | None = None


@question(
    "license_required",
    facts=Animal,
    value=LicenseRequired,
    doc="Whether the animal must be licensed for the license year, from when and by when.",
)
def license_required(pack: Pack, a: Animal, on: date, local: LocalAmounts) -> Decision:
    lic = pack.licensing
    due = licensable_on(pack, a.born_on)
    year = a.license_year or license_year_of(pack, on)
    cites = [lic.licensable_age.cite.citation]
    excluded = _terms_of(pack).exclusion(a.species, a.kept_only_for_education_or_science)
    if excluded:
        return Decision(LicenseRequired(False, year, due, reason=excluded[2]), (excluded[1],), (excluded[0],))
    if due > license_year_bounds(pack, year)[1]:
        value = LicenseRequired(False, year, due, reason="not_of_licensable_age")
        return Decision(value, tuple(cites), (f"not of licensable age in license year {year}",))
    if (trigger := late_fee_trigger(pack, a, on)) is not None:
        cites += [lic.late_fee.cite.citation, *trigger[3]]
    free = [f.cite.citation for f in lic.free_license if a.species == "dog" and a.trained_to in f.trained_to]
    value = LicenseRequired(True, year, due, trigger and trigger[1], trigger and trigger[0], bool(free))
    return Decision(value, (*cites, *free), ())


@dataclass(frozen=True)
class LicenseExpiry:
    """The license year that `starts` and `expires`; `unused_tags_return_by` where the ordinance
    has the clerk return unused tags (None where it does not)."""

    license_year: int
    starts: date
    expires: date
    expired: bool
    unused_tags_return_by: date | None = None


@question(
    "license_expiry",
    facts=Issue,
    value=LicenseExpiry,
    doc="The license year of a license issued on a date, and when it expires.",
)
def license_expiry(pack: Pack, facts: Issue, on: date, local: LocalAmounts) -> Decision:
    lic = pack.licensing
    year = facts.license_year or license_year_of(pack, facts.issued_on)
    start, end = license_year_bounds(pack, year)
    cites = [lic.license_year.cite.citation]
    return_by, notes = None, ()
    if (rule := lic.unused_tags_return) is not None:
        counted = named_day(rule.by.of(end.year), not_moved=rule.not_moved)
        return_by, notes = counted.day, counted.notes
        cites += [rule.cite.citation, *counted.citations]
    return Decision(LicenseExpiry(year, start, end, on > end, return_by), tuple(cites), notes)


@dataclass(frozen=True)
class LicenseContents:
    """What the `license` must state and the `tag` must bear (None: the law lists nothing)."""

    license: tuple[str, ...] | None
    tag: tuple[str, ...] | None
    requires_current_rabies: bool


@question(
    "license_contents",
    facts=NoFacts,
    value=LicenseContents,
    doc="What the license must state and what the tag must bear.",
)
def license_contents(pack: Pack, facts: NoFacts, on: date, local: LocalAmounts) -> Decision:
    lic = pack.licensing
    parts = (lic.license_states, lic.tag_bears)
    value = LicenseContents(*(tuple(p.items) if p else None for p in parts), lic.requires_current_rabies is not None)
    return Decision(value, tuple(p.cite.citation for p in (*parts, lic.requires_current_rabies) if p), ())


@dataclass(frozen=True)
class IssuingOfficeAnswer:
    """The office that issues the license, in the ordinance's words (None: the law names none)."""

    office: str | None


@question(
    "issuing_office",
    facts=NoFacts,
    value=IssuingOfficeAnswer,
    doc="The office that issues the license, as the ordinance names it (None: the law names none).",
)
def issuing_office(pack: Pack, facts: NoFacts, on: date, local: LocalAmounts) -> Decision:
    office = pack.licensing.issuing_office
    return Decision(IssuingOfficeAnswer(office and office.office), office.citations() if office else (), ())
