"""What an application would owe, computed by the counter's own `what_is_owed` so the resident
sees the figure the clerk's approval will charge. Nothing is written: the application's dog and
certificate are unsaved registry objects, the certificate added to the facts read for the dog
(licensing/facts.py), and a new dog stands in with pk 0 (no license or certificate matches it)."""

import copy
from dataclasses import replace
from datetime import date

from django.utils.translation import gettext

from dogtag.licensing import law
from dogtag.licensing.facts import read_facts
from dogtag.licensing.owed import Owed, what_is_owed
from dogtag.registry.models import Animal, RabiesVaccination
from dogtag.rules import offered

ANIMAL_DATA = ("breed", "color", "sex", "altered")


def licensed_species(municipality) -> tuple[str, ...]:
    """The animals the municipality's ordinance licenses, in its pack's order ("dog" first)."""
    return offered.licensed_species(law.pack_of(municipality))


def proposed_animal(application) -> Animal:
    d = application.data
    if application.animal_id:
        animal = copy.copy(application.animal)
        animal._state = copy.copy(animal._state)
    else:
        animal = Animal(
            pk=0,
            municipality=application.municipality,
            species=d.get("species") or licensed_species(application.municipality)[0],
            name=d.get("animal_name", ""),
            birth_date=_date(d.get("birth_date")),
            acquired_on=_date(d.get("acquired_on")),
        )
    animal.municipality = application.municipality
    for name in ANIMAL_DATA:
        if name in d:
            setattr(animal, name, d[name] if name != "altered" else bool(d[name]))
    if d.get("animal_name"):
        animal.name = d["animal_name"]
    return animal


def proposed_certificate(application, animal) -> RabiesVaccination | None:
    d = application.data
    vaccinated_on, expires_on = _date(d.get("vaccinated_on")), _date(d.get("expires_on"))
    if not (vaccinated_on and expires_on):
        return None
    return RabiesVaccination(
        municipality=application.municipality,
        certificate_serial=d.get("certificate_serial", ""),
        vaccinated_on=vaccinated_on,
        expires_on=expires_on,
    )


def quote(application, on: date) -> Owed:
    """The counter's figures for the application: the facts as the register has them, with the
    application's dog and its certificate not yet saved given as facts."""
    animal = proposed_animal(application)
    facts = read_facts(animal, on, application.license_year)
    proposed = proposed_certificate(application, animal)
    if proposed and not any(v.certificate_serial == proposed.certificate_serial for v in facts.certificates):
        facts = replace(facts, certificates=(*facts.certificates, proposed))
    return what_is_owed(facts)


def held_documents(application, certificate_serial, on) -> dict:
    """What the clerk already holds for a renewal and need not be sent again: the dog's rabies
    certificate on file under the number given, if the engine finds it current on `on` (with
    `through`, the last day it is); and the evidence of spaying or neutering on the register."""
    animal = application.animal if application.animal_id else None
    if animal is None:
        return {"rabies": None, "through": None, "altered": False}
    held = {"rabies": None, "through": None, "altered": animal.altered and bool(animal.altered_evidence.strip())}
    vaccinations = list(animal.vaccinations.filter(voided_at=None))
    latest = max(vaccinations, key=lambda v: v.vaccinated_on, default=None)
    if latest is None or not certificate_serial or latest.certificate_serial != certificate_serial:
        return held
    facts = {"species": animal.species, "vaccinated_on": latest.vaccinated_on, "initial": len(vaccinations) == 1,
             "certificate_expires_on": latest.expires_on}  # fmt: skip
    current = law.ask(animal.municipality, "rabies_current", facts, on, {})
    if current.value.current:
        held.update(rabies=latest, through=current.value.through)
    return held


def _date(value):
    if isinstance(value, date) or not value:
        return value or None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def cited(citation, municipality) -> str:
    """`Webster § 98-3A(3)`, `Wis. Stats. s. 174.05(2)`."""
    if citation is None:
        return ""
    if citation.jurisdiction == "wi":
        return f"Wis. Stats. s. {citation.section.removeprefix('s. ')}"
    return f"{municipality.name} {citation.section}"


def plain_lines(owed: Owed, municipality, altered: bool, species: str = "dog") -> list[dict]:
    """Each amount as a sentence a resident can read: what, how much, because, and the section."""
    from dogtag.licensing.law import pack_of
    from dogtag.rules.licensing import late_fee_trigger_label

    animal = str(Animal.Species(species).label).lower()  # in the language active: "dog", "perro"
    lines = []
    for i, line in enumerate(owed.lines):
        where = cited(line.citations[0] if line.citations else None, municipality)
        facts = {"animal": animal, "amount": line.amount, "where": where}
        if i == 0 and owed.free_license:
            text = gettext("Your %(animal)s's license is free ($0.00) — %(where)s.") % facts
        elif i == 0 and altered:
            text = gettext("Your %(animal)s's license costs $%(amount)s because it is spayed or neutered — %(where)s.")
            text %= facts
        elif i == 0:
            text = gettext(
                "Your %(animal)s's license costs $%(amount)s because it is not spayed or neutered — %(where)s."
            )
            text %= facts
        else:
            # The reason is the pack's own words (the ordinance's), kept as the adopted text says them.
            trigger = owed.late_fee_trigger
            reason = late_fee_trigger_label(pack_of(municipality), trigger) if trigger else gettext("it is late")
            text = gettext("A late fee of $%(amount)s is added because the %(animal)s was %(reason)s — %(where)s.")
            text %= {**facts, "reason": reason}
        lines.append({"text": text, "amount": line.amount, "citations": line.citations})
    return lines
