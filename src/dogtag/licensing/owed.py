"""What an animal owes for its license on a day, and every reason it cannot be issued yet —
the figures the clerk sees at the counter, each with the citations that produced it."""

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db.models import Q

from dogtag.lib.compiled import DATE_MARKERS, INT_MARKERS, Compiled, prefetched
from dogtag.lib.dates import shown
from dogtag.licensing import law
from dogtag.licensing.models import License, own_or_covering
from dogtag.registry.models import Animal, Ownership, RabiesVaccination
from dogtag.rules.decision import ZERO, Citation, NotSet
from dogtag.rules.licensing import late_fee_trigger_label, license_year_bounds, license_year_of


@dataclass
class Line:
    label: str
    amount: Decimal
    citations: tuple[Citation, ...]
    notes: tuple[str, ...] = ()


@dataclass
class Refusal:
    field: str
    message: str
    citation: Citation | None = None
    not_set: NotSet | None = None


@dataclass
class Owed:
    license_year: int
    on: date | None = None
    lines: list[Line] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    free_license: bool = False
    late_fee_trigger: str = ""
    expires_on: date | None = None
    expiry_citations: tuple[Citation, ...] = ()
    vaccination: object = None
    existing: License | None = None

    @property
    def total(self) -> Decimal:
        return sum((line.amount for line in self.lines), ZERO)

    @property
    def tax(self) -> Decimal:
        return self.lines[0].amount if self.lines else ZERO

    @property
    def late_fee(self) -> Decimal:
        return sum((line.amount for line in self.lines[1:]), ZERO)

    @property
    def can_issue(self) -> bool:
        return not self.refusals

    def citations(self) -> list[Citation]:
        seen = []
        for c in [c for line in self.lines for c in line.citations] + list(self.expiry_citations):
            if c not in seen:
                seen.append(c)
        return seen


def fee_label(key: str) -> str:
    """`license_tax.unaltered` -> `license tax — unaltered`."""
    return " — ".join(part.replace("_", " ") for part in key.split("."))


def _section(citation: Citation | None) -> str:
    if citation is None:
        return ""
    name = {"wi": "Wis. Stats."}.get(citation.jurisdiction, "")
    return f"{name} {citation.section}".strip()


def what_is_owed(animal: Animal, on: date, license_year: int | None = None, *, local=None, certificates=None) -> Owed:
    """What licensing `animal` on `on` costs and what stands in its way; `certificates`: its rabies
    certificates when the caller has them (the portal's, with one not yet saved), else read."""
    pack = law.pack_of(animal.municipality, on)
    year = license_year or license_year_of(pack, on)
    owed = Owed(license_year=year, on=on)
    lic = pack.licensing
    refuse = owed.refusals.append

    if animal.status != Animal.Status.ACTIVE:
        refuse(Refusal("status", f"{animal.name} is recorded as {animal.get_status_display().lower()}."))
    if animal.species not in lic.species.species:
        refuse(
            Refusal(
                "species",
                f"{animal.municipality} does not license a {animal.species} "
                f"({_section(lic.species.cite.citation)} names {', '.join(lic.species.species)}).",
                lic.species.cite.citation,
            )
        )
        return owed
    facts = law.animal_facts(animal, year)
    if facts is None:
        refuse(
            Refusal(
                "birth_date",
                "Enter the birth date, or an estimate: the license year and any late fee "
                f"depend on the age ({_section(lic.licensable_age.cite.citation)}).",
                lic.licensable_age.cite.citation,
            )
        )
        return owed
    local = local if local is not None else law.local_amounts(animal.municipality)

    required = law.ask(animal.municipality, "license_required", facts, on, local)
    if not required.value.required:
        # A puppy may be licensed ahead of its birthday ("on or before", s. 174.05(1)) but not for
        # a license year it does not reach licensable age in.
        licensable = required.value.licensable_on
        reason = (
            f"{animal.name} is not licensable in {year}: it becomes licensable on {shown(licensable)}"
            if licensable > on
            else (required.notes[0] if required.notes else "no license is required")
        )
        refuse(
            Refusal(
                "birth_date" if licensable > on else "working_status",
                f"{reason} ({_section(required.citations[0])}).",
                required.citations[0],
            )
        )

    # The animal's own license and a multiple-dog license covering it, in one query.
    multiple_dog = bool(pack.multiple_dog and pack.multiple_dog.license)
    in_force = _licenses_in_force(animal, year, multiple_dog)
    owed.existing = next((lic for lic in in_force if lic.animal_id == animal.pk), None)
    covering = next((lic for lic in in_force if lic.kind == License.Kind.MULTIPLE_DOG), None)
    if owed.existing:
        refuse(Refusal("license", f"License {owed.existing.serial} is already in force for {year}."))
    elif multiple_dog and covering:
        cite = pack.multiple_dog.license.cite.citation
        refuse(
            Refusal(
                "license",
                f"{animal.name} is kept under multiple-dog license {covering.serial} for {year}, "
                f"instead of a license tax for each dog ({_section(cite)}).",
                cite,
            )
        )

    if lic.requires_current_rabies is not None:
        known = certificates if certificates is not None else _certificates(animal)
        _check_rabies(animal, known, on, owed, lic.requires_current_rabies.cite.citation, local)

    # A license sold ahead of its year (next year's, in December) is priced as that year's law
    # stands when the year begins, not as today's.
    priced_on = max(on, license_year_bounds(pack, year)[0])
    charges = law.ask(animal.municipality, "license_charges", facts, priced_on, local)
    for missing in charges.not_set:
        refuse(
            Refusal(
                "fee_schedule",
                f"No amount is set for “{fee_label(missing.key)}”: "
                f"{_section(missing.citation)} leaves it to the local fee schedule.",
                missing.citation,
                missing,
            )
        )
    value = charges.value
    if value.tax is not None:
        tax_cites = tuple(c for c in charges.citations if c != lic.late_fee.cite.citation) or charges.citations
        owed.free_license = required.value.free_license
        owed.lines.append(
            Line(
                "Free license"
                if owed.free_license
                else f"License tax ({'spayed/neutered' if animal.altered else 'not spayed/neutered'})",
                value.tax,
                tax_cites,
                tuple(n for n in charges.notes if "late fee" not in n),
            )
        )
    if value.late_fee:
        owed.late_fee_trigger = value.trigger
        owed.lines.append(
            Line(
                f"Late fee — {late_fee_trigger_label(law.pack_of(animal.municipality), value.trigger)}",
                value.late_fee,
                (lic.late_fee.cite.citation,),
                tuple(n for n in charges.notes if "late fee" in n),
            )
        )
    expiry = law.ask(animal.municipality, "license_expiry", {"issued_on": on, "license_year": year}, on, local)
    owed.expires_on, owed.expiry_citations = expiry.value.expires, expiry.citations
    return owed


def _in_force(multiple_dog: bool):
    """The animal's licenses not void, of every year, found from the animal's own indexes: a
    condition on the year would let a planner whose statistics predate the year (a new license
    year, before autoanalyze) read the year's licenses by it, believing it holds none."""

    def build(animal_id):
        mine = own_or_covering(animal_id) if multiple_dog else Q(animal_id=animal_id)
        return License.objects.filter(mine, voided_at=None).order_by("pk")

    return Compiled(build, animal_id=INT_MARKERS[0])


# Asked on every counter page and every issue: compiled once (lib/compiled.py).
_IN_FORCE = {False: _in_force(False), True: _in_force(True)}
_CERTIFICATES = Compiled(
    lambda animal_id: RabiesVaccination.objects.filter(animal_id=animal_id), animal_id=INT_MARKERS[0]
)


def _licenses_in_force(animal, year, multiple_dog: bool) -> list[License]:
    """Licenses in force for `year` that are the animal's own or (where the ordinance has them)
    a multiple-dog license covering it."""
    return [lic for lic in _IN_FORCE[multiple_dog].objects(animal_id=animal.pk) if lic.license_year == year]


def _certificates(animal) -> list[RabiesVaccination]:
    """The animal's rabies certificates (`animal.vaccinations.all()`), prefetched or read."""
    if (known := prefetched(animal, "vaccinations")) is not None:
        return known
    if animal.pk is None:
        return list(animal.vaccinations.all())
    found = _CERTIFICATES.objects(animal_id=animal.pk)
    for vaccination in found:
        vaccination.animal = animal
    return found


def covering_license(animal, year):
    """The multiple-dog license in force for this dog and year, if any."""
    return License.objects.filter(
        kind=License.Kind.MULTIPLE_DOG, covered_animals=animal, license_year=year, voided_at=None
    ).first()


def _check_rabies(animal, certificates, on, owed, citation, local=None):
    vaccinations = [v for v in certificates if v.voided_at is None]
    section = _section(citation)
    if not vaccinations:
        owed.refusals.append(
            Refusal(
                "vaccination",
                f"No rabies certificate is recorded for {animal.name}; {section} "
                "requires current immunization before a license is issued.",
                citation,
            )
        )
        return
    latest = max(vaccinations, key=lambda v: v.vaccinated_on)
    current = law.ask(
        animal.municipality,
        "rabies_current",
        {
            "species": animal.species,
            "vaccinated_on": latest.vaccinated_on,
            "initial": len(vaccinations) == 1,
            "certificate_expires_on": latest.expires_on,
        },
        on,
        local if local is not None else {},
    )
    if not current.value.applies or not current.value.current:
        through = current.value.through if current.value.applies else latest.expires_on
        owed.refusals.append(
            Refusal(
                "vaccination",
                f"Rabies certificate {latest.certificate_serial} expired on "
                f"{shown(through)}; {section} requires current immunization before a "
                "license is issued.",
                citation,
            )
        )
    else:
        owed.vaccination = latest


def _kept(municipality_id, premises_id, animal_id, on: date):
    kept = Animal.objects.filter(municipality_id=municipality_id, status=Animal.Status.ACTIVE)
    if premises_id:
        return kept.filter(premises_id=premises_id)
    owners = Ownership.objects.current(on).filter(animal_id=animal_id).values("person_id")
    return kept.filter(pk__in=Ownership.objects.current(on).filter(person_id__in=owners).values("animal_id"))


def kept_with(animal: Animal, on: date):
    """The active animals kept where this one is: the same premises, else the same owners."""
    return _kept(animal.municipality_id, animal.premises_id, animal.pk, on)


KEPT_COLUMNS = ("species", "birth_date", "acquired_on")
_KEPT = {
    True: Compiled(
        lambda municipality, place: _kept(municipality, place, None, None).values_list(*KEPT_COLUMNS),
        municipality=INT_MARKERS[0],
        place=INT_MARKERS[1],
    ),
    False: Compiled(
        lambda municipality, animal, on: _kept(municipality, None, animal, on).values_list(*KEPT_COLUMNS),
        municipality=INT_MARKERS[0],
        animal=INT_MARKERS[1],
        on=DATE_MARKERS[0],
    ),
}


def _kept_rows(animal: Animal, on: date) -> list[list]:
    """`kept_with(animal, on).values_list(*KEPT_COLUMNS)`, compiled once."""
    if animal.premises_id:
        return _KEPT[True].rows(municipality=animal.municipality_id, place=animal.premises_id)
    return _KEPT[False].rows(municipality=animal.municipality_id, animal=animal.pk, on=on)


def limit_warnings(animal: Animal, on: date) -> list[tuple[str, tuple[Citation, ...]]]:
    """Household, kennel and multiple-dog thresholds the keeping place crosses, with the section."""
    pack = law.pack_of(animal.municipality, on)
    kept = _kept_rows(animal, on)
    dogs = [born for species, born, _ in kept if species == "dog" and born]
    warnings = []
    if pack.household and pack.household.limit:
        d = law.ask(
            animal.municipality,
            "household_limit",
            {"animals": law.household_animals(kept)},
            on,
            {},
        )
        if d.value.over_limit:
            warnings.append(
                (
                    f"{d.value.counted} dogs and cats are kept here, more than the {d.value.more_than} allowed.",
                    d.citations[:1],
                )
            )
    if pack.kennel and pack.kennel.required:
        d = law.ask(animal.municipality, "kennel_license", {"dogs_born_on": dogs}, on, {})
        if d.value.required:
            warnings.append(
                (
                    f"{d.value.dogs_over_age} dogs over licensable age are kept here: a kennel license "
                    "is required in addition to each dog's license.",
                    d.citations[:1],
                )
            )
        if d.value.over_limit:
            warnings.append((f"No more than {d.value.at_most} dogs may be kept on one premises.", d.citations[1:2]))
    if pack.multiple_dog and pack.multiple_dog.license:
        others, pups = law.litter_and_other_dogs(kept)
        d = law.ask(animal.municipality, "multiple_dog_license", {"dogs": others, "litter_born_on": pups}, on, {})
        if d.value.required:
            warnings.append(
                (
                    f"{d.value.dogs_counted} dogs are kept here: a multiple-dog license is required instead of "
                    "individual licenses.",
                    d.citations[:1],
                )
            )
    return warnings
