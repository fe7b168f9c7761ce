"""A change of owner of a declared dog, checked against the law before the registry writes it
(River Hills § 2.14(6)[e](1)(vii)); registered with the registry in EnforcementConfig.ready."""

from django.core.exceptions import ValidationError

from dogtag.enforcement import law
from dogtag.enforcement.models import Declaration
from dogtag.lib.dates import shown

QUESTIONS = {
    "recipient_resides_in_municipality": "Does the new owner reside in the municipality?",
    "same_household_and_premises": "Does the new owner reside permanently in the owner's household and premises?",
    "status_disclosed": "Was the dog's status as a dangerous or vicious dog disclosed to the new owner?",
}


def _refusals(animal, on, answers):
    """(declaration, decision) for each declaration in force whose law refuses these answers."""
    declarations = Declaration.objects.filter(animal=animal, status__in=Declaration.IN_FORCE_STATUSES)
    for decl in declarations.select_related("municipality"):
        facts = {"classification": decl.classification, **{name: answers.get(name) for name in QUESTIONS}}
        decision = law.ask(decl.municipality, "dangerous_dog_transfer", facts, on)
        if not decision.value.allowed:
            yield decl, decision


class DeclaredDogTransfer:
    def questions(self, animal, on) -> dict[str, str]:
        """Asked only where the law restricts this dog's transfer (the unanswered questions refuse it)."""
        return QUESTIONS if next(_refusals(animal, on, {}), None) else {}

    def __call__(self, animal, *, to_person, on, answers):
        for decl, decision in _refusals(animal, on, answers):
            kind = decl.get_classification_display().lower()
            why = f"{animal.name} is declared {kind} (since {shown(decl.determined_on)})"
            raise ValidationError(
                {
                    name: f"{why}: {reason} ({law.sections(decision)})."
                    for name, reason in decision.value.reasons.items()
                }
            )


declared_dog_transfer = DeclaredDogTransfer()  # registered with the registry in EnforcementConfig.ready
