"""Animal control's questions to the rule engine, for a municipality on a date.

Every number a case shows comes from here; a refusal names the law it rests on."""

from datetime import date

from django.core.exceptions import ValidationError

from dogtag import rules
from dogtag.licensing.law import local_amounts


def ask(municipality, question: str, facts: dict, on: date, field: str = "__all__") -> rules.Decision:
    """rules.ask in the municipality's pack; the engine's refusal of the facts becomes a
    ValidationError on `field`."""
    try:
        return rules.ask(municipality.rule_pack, question, facts, on, local_amounts(municipality))
    except ValueError as e:
        # A pydantic refusal names each fact and its rule, as the rules API does; anything else as is.
        reasons = (
            [f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors()]
            if hasattr(e, "errors")
            else [str(e)]
        )
        raise ValidationError({field: f"{'; '.join(reasons)} ({question.replace('_', ' ')})"}) from e


def cites(decision: rules.Decision) -> list[dict]:
    return [{"section": c.section, "quote": c.quote, "jurisdiction": c.jurisdiction} for c in decision.citations]


def sections(decision_or_cites) -> str:
    """'§ 98-7, s. 990.001(4)' for a message."""
    items = decision_or_cites.citations if isinstance(decision_or_cites, rules.Decision) else decision_or_cites
    names = []
    for c in items:
        section = c.section if hasattr(c, "section") else c["section"]
        if section not in names:
            names.append(section)
    return ", ".join(names)


def stored(decision: rules.Decision) -> dict:
    """A decision as JSON to keep on the record it produced."""
    return decision.to_json()


def not_set_message(decision: rules.Decision) -> str:
    return "; ".join(
        f"the local amount “{n.key.replace('_', ' ').replace('.', ' — ')}” is not set "
        f"({n.citation.section}: the clerk sets it in the fee schedule)"
        for n in decision.not_set
    )
