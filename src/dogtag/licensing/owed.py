"""What an animal owes for its license on a day, and every reason it cannot be issued yet —
the figures the clerk sees at the counter, each with the citations that produced it."""

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from dogtag.lib.dates import shown
from dogtag.licensing import law
from dogtag.licensing.facts import LicensingFacts
from dogtag.licensing.models import License
from dogtag.registry.models import Animal
from dogtag.rules.amounts import NO_LOCAL_AMOUNTS
from dogtag.rules.decision import ZERO, Citation, NotSet
from dogtag.rules.licensing import late_fee_trigger_label


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

    def refuse(self, *refusal) -> None:
        """A reason it cannot be issued: field, message, citation, the amount not set."""
        self.refusals.append(Refusal(*refusal))

    @property
    def can_issue(self) -> bool:
        return not self.refusals

    def citations(self) -> list[Citation]:
        return list(dict.fromkeys([*(c for line in self.lines for c in line.citations), *self.expiry_citations]))


def fee_label(key: str) -> str:
    """`license_tax.unaltered` -> `license tax — unaltered`."""
    return " — ".join(part.replace("_", " ") for part in key.split("."))


def section_label(citation: Citation | None) -> str:
    if citation is None:
        return ""
    name = {"wi": "Wis. Stats."}.get(citation.jurisdiction, "")
    return f"{name} {citation.section}".strip()


def not_set_message(missing) -> str:
    """The refusal for an amount the ordinance leaves to the fee schedule and the clerk has not set."""
    section = section_label(missing.citation)
    return f"No amount is set for “{fee_label(missing.key)}”: {section} leaves it to the local fee schedule."


def what_is_owed(facts: LicensingFacts) -> Owed:
    """What licensing the animal on the facts' day costs and what stands in its way, decided from
    the facts alone (licensing/facts.py reads them): nothing here touches the database."""
    animal, on, year, pack = facts.animal, facts.on, facts.license_year, facts.pack
    owed = Owed(license_year=year, on=on)
    lic = pack.licensing
    refuse = owed.refuse

    if animal.status != Animal.Status.ACTIVE:
        refuse("status", f"{animal.name} is recorded as {animal.get_status_display().lower()}.")
    if animal.species not in lic.species.species:
        refuse(
            "species",
            f"{animal.municipality} does not license a {animal.species} "
            f"({section_label(lic.species.cite.citation)} names {', '.join(lic.species.species)}).",
            lic.species.cite.citation,
        )
        return owed
    if (animal_facts := law.animal_facts(animal, year)) is None:
        refuse(
            "birth_date",
            "Enter the birth date, or an estimate: the license year and any late fee "
            f"depend on the age ({section_label(lic.licensable_age.cite.citation)}).",
            lic.licensable_age.cite.citation,
        )
        return owed
    local = facts.local

    required = law.answer(pack, "license_required", animal_facts, on, local)
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
            "birth_date" if licensable > on else "working_status",
            f"{reason} ({section_label(required.citations[0])}).",
            required.citations[0],
        )

    owed.existing = next((lic for lic in facts.in_force if lic.animal_id == animal.pk), None)
    covering = next((lic for lic in facts.in_force if lic.kind == License.Kind.MULTIPLE_DOG), None)
    if owed.existing:
        refuse("license", f"License {owed.existing.serial} is already in force for {year}.")
    elif covering and pack.multiple_dog and pack.multiple_dog.license:
        cite = pack.multiple_dog.license.cite.citation
        refuse(
            "license",
            f"{animal.name} is kept under multiple-dog license {covering.serial} for {year}, "
            f"instead of a license tax for each dog ({section_label(cite)}).",
            cite,
        )

    if lic.requires_current_rabies is not None:
        _check_rabies(pack, animal, facts.certificates, on, owed, lic.requires_current_rabies.cite.citation, local)

    charges = law.answer(facts.priced_pack, "license_charges", animal_facts, facts.priced_on, local)
    for missing in charges.not_set:
        refuse("fee_schedule", not_set_message(missing), missing.citation, missing)
    value = charges.value
    if value.tax is not None:
        tax_cites = tuple(c for c in charges.citations if c != lic.late_fee.cite.citation) or charges.citations
        owed.free_license = required.value.free_license
        label = f"License tax ({'spayed/neutered' if animal.altered else 'not spayed/neutered'})"
        notes = tuple(n for n in charges.notes if "late fee" not in n)
        owed.lines.append(Line("Free license" if owed.free_license else label, value.tax, tax_cites, notes))
    if value.late_fee:
        owed.late_fee_trigger = value.trigger
        label = f"Late fee — {late_fee_trigger_label(facts.priced_pack, value.trigger)}"
        notes = tuple(n for n in charges.notes if "late fee" in n)
        owed.lines.append(Line(label, value.late_fee, (lic.late_fee.cite.citation,), notes))
    expiry = law.answer(pack, "license_expiry", {"issued_on": on, "license_year": year}, on, local)
    owed.expires_on, owed.expiry_citations = expiry.value.expires, expiry.citations
    return owed


def _check_rabies(pack, animal, certificates, on, owed, citation, local):
    vaccinations = [v for v in certificates if v.voided_at is None]
    if not vaccinations:
        problem = f"No rabies certificate is recorded for {animal.name}"
    else:
        latest = max(vaccinations, key=lambda v: v.vaccinated_on)
        current = law.answer(
            pack,
            "rabies_current",
            {
                "species": animal.species,
                "vaccinated_on": latest.vaccinated_on,
                "initial": len(vaccinations) == 1,
                "certificate_expires_on": latest.expires_on,
            },
            on,
            local,
        )
        if current.value.applies and current.value.current:
            owed.vaccination = latest
            return
        through = current.value.through if current.value.applies else latest.expires_on
        problem = f"Rabies certificate {latest.certificate_serial} expired on {shown(through)}"
    section = section_label(citation)
    owed.refuse(
        "vaccination", f"{problem}; {section} requires current immunization before a license is issued.", citation
    )


def limits_crossed(pack, kept: list[tuple], on: date) -> list[tuple[str, str, tuple[Citation, ...]]]:
    """Household, kennel and multiple-dog thresholds a keeping place crosses: (the question, the
    warning, its section) each; `kept`: (species, birth date, acquired on) of the animals kept
    there. The counter warns of them all; the report of premises over a limit lists the first two."""
    dogs = [born for species, born, _ in kept if species == "dog" and born]
    crossed, household_over = [], False
    if pack.household and pack.household.limit:
        d = law.answer(pack, "household_limit", {"animals": law.household_animals(kept)}, on, NO_LOCAL_AMOUNTS)
        household_over = d.value.over_limit
        if household_over:
            animals = " and ".join(f"{species}s" for species in pack.household.limit.species)
            warning = f"{d.value.counted} {animals} are kept here, more than the {d.value.more_than} allowed."
            crossed.append(("household_limit", warning, d.citations[:1]))
    if pack.kennel and pack.kennel.required:
        d = law.answer(pack, "kennel_license", {"dogs_born_on": dogs}, on, NO_LOCAL_AMOUNTS)
        if d.value.required:
            warning = (
                f"{d.value.dogs_over_age} dogs over licensable age are kept here: a kennel license "
                "is required in addition to each dog's license."
            )
            crossed.append(("kennel_license", warning, d.citations[:1]))
        # a household limit over the same dogs (Benton § 115-3B) has already said so
        if d.value.over_limit and not household_over:
            warning = f"No more than {d.value.at_most} dogs may be kept on one premises."
            crossed.append(("kennel_license", warning, d.citations[1:2]))
    if pack.multiple_dog and pack.multiple_dog.license:
        # litter pups (household_animals) are counted apart from the other dogs
        pups = [a["born_on"] for a in law.household_animals(kept) if a["species"] == "dog" and a["from_litter"]]
        facts = {"dogs": len(dogs) - len(pups), "litter_born_on": pups}
        d = law.answer(pack, "multiple_dog_license", facts, on, NO_LOCAL_AMOUNTS)
        if d.value.required:
            warning = (
                f"{d.value.dogs_counted} dogs are kept here: a multiple-dog license is required instead of "
                "individual licenses."
            )
            crossed.append(("multiple_dog_license", warning, d.citations[:1]))
    return crossed
