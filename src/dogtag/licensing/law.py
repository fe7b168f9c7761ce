"""The licensing app's questions to the rule engine: the municipality's pack, the amounts its
clerk has set, and the registry's animal as the engine's facts."""

from collections import Counter
from datetime import date

from django.core.exceptions import ValidationError

from dogtag import rules
from dogtag.licensing.facts import local_amounts
from dogtag.registry import rulings
from dogtag.registry.models import Animal
from dogtag.rules.amounts import LocalAmounts
from dogtag.rules.licensing import Animal as AnimalFacts
from dogtag.rules.licensing import period_words
from dogtag.rules.licensing_many import ROW_FACTS
from dogtag.rules.licensing_many import decide_rows as engine_decide_rows

TRAINED_TO = {
    Animal.WorkingStatus.LEADER: "lead_blind_or_deaf",
    Animal.WorkingStatus.SERVICE: "service",
}


# The municipality's pack as a question on `on` reads it: with its rulings in force that day;
# without `on`, as ruled today.
pack_of = rulings.pack_on


def licensable_age(municipality) -> str:
    """When an animal must be licensed, in the pack's words and figures ("more than 5 months of
    age"), for screens that speak before a license is priced (the portal's first page)."""
    return f"more than {period_words(pack_of(municipality).licensing.licensable_age.age)} of age"


def facts_row(animal: Animal, license_year: int | None = None) -> tuple | None:
    """A registry animal as the row the engine's batch reads (`decide_rows`, in ROW_FACTS order),
    without a facts model; None when its birth date is unknown."""
    if animal.birth_date is None or animal.species not in ("dog", "cat"):
        return None
    status = animal.working_status
    return (
        animal.species,
        status == Animal.WorkingStatus.EDUCATIONAL_SCIENTIFIC,
        license_year,
        animal.birth_date,
        animal.altered,
        TRAINED_TO.get(status),
        animal.acquired_on,
    )


def facts_of_row(row: tuple) -> AnimalFacts:
    """A facts_row as the facts model, for the questions asked one by one."""
    return AnimalFacts(**dict(zip(ROW_FACTS, row, strict=True)))


def animal_facts(animal: Animal, license_year: int | None = None) -> AnimalFacts | None:
    """The engine's facts for a registry animal (its facts_row as the facts model); None when its
    birth date is unknown."""
    row = facts_row(animal, license_year)
    return None if row is None else facts_of_row(row)


def decide_rows(municipality, question: str, rows: list[tuple], on: date, local=None) -> list[rules.Decision]:
    """`question` (license_tax, late_fee or license_charges) for many animals' facts_row on one
    day, in order, from the municipality's pack and the clerk's fee schedule (or `local`)."""
    amounts = LocalAmounts.of(local) if local is not None else local_amounts(municipality)
    return engine_decide_rows(pack_of(municipality, on), rows, on, amounts, question)


def household_animals(kept) -> list[dict]:
    """The household_limit facts for the dogs and cats kept in one place, from (species, birth
    date, acquired on) rows. The register has no litter field, so an animal is from a litter
    (Cedarburg § 7-1-6(f): "A time limit of five (5) months is allowed for litters") when it was
    acquired on the day it was born, or when another animal of its species kept there shares its
    birth date: littermates born or kept together."""
    rows = [(s, b, a) for s, b, a in kept if s in ("dog", "cat")]
    births = Counter((s, b) for s, b, _ in rows if b is not None)
    return [
        {"species": s, "born_on": b, "from_litter": b is not None and (a == b or births[(s, b)] > 1)}
        for s, b, a in rows
    ]


def ask(municipality, question: str, facts, on: date, local=None, field: str = "__all__") -> rules.Decision:
    """The one way an app asks the engine: the municipality's pack, the clerk's fee schedule as
    the local amounts (or `local`), facts as a dict or the question's own facts. The engine's
    refusal of the facts becomes a ValidationError on `field`, naming each fact and its rule."""
    amounts = LocalAmounts.of(local) if local is not None else local_amounts(municipality)
    return answer(pack_of(municipality, on), question, facts, on, amounts, field)


def answer(pack, question: str, facts, on: date, local: LocalAmounts, field: str = "__all__") -> rules.Decision:
    """`ask` of a pack and local amounts already read (licensing/facts.py): reads nothing."""
    q = rules.get_question(question)
    try:
        facts = facts if isinstance(facts, q.facts) else q.facts.model_validate(dict(facts))
        # Facts of the right shape the pack cannot answer (a section it does not have) raise too.
        return q.answer(pack, facts, on, local)
    except ValueError as e:
        reasons = [str(e)]
        if hasattr(e, "errors"):
            reasons = [f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors()]
        raise ValidationError({field: f"{'; '.join(reasons)} ({question.replace('_', ' ')})"}) from e


def issuing_office(municipality, on: date) -> str | None:
    """The office the municipality's ordinance names to issue licenses, as in force on `on`
    (the `issuing_office` question); None where the law names none."""
    return ask(municipality, "issuing_office", {}, on, local={}).value.office
