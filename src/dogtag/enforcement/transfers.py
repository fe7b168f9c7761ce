"""A change of owner of a declared dog, checked against the law before the registry writes it
(River Hills § 2.14(6)[e](1)(vii)); registered with the registry in EnforcementConfig.ready."""

from django.core.exceptions import ValidationError

from dogtag.enforcement import law
from dogtag.enforcement.models import Declaration

ANSWERS = ("recipient_resides_in_municipality", "same_household_and_premises", "status_disclosed")


def check_transfer(animal, *, to_person, on, answers):
    """Refuse the transfer, naming each answer that refuses it and the section, while a
    declaration of the animal is in force and the municipality's law restricts it."""
    declarations = Declaration.objects.filter(animal=animal, status__in=Declaration.IN_FORCE_STATUSES)
    for decl in declarations.select_related("municipality"):
        facts = {"classification": decl.classification, **{name: answers.get(name) for name in ANSWERS}}
        decision = law.ask(decl.municipality, "dangerous_dog_transfer", facts, on)
        if decision.value is None or decision.value["allowed"]:
            continue
        why = f"{animal.name} is declared {decl.get_classification_display().lower()} (since {decl.determined_on})"
        raise ValidationError(
            {name: f"{why}: {reason} ({law.sections(decision)})." for name, reason in decision.value["reasons"].items()}
        )
