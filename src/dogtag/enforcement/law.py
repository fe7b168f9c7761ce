"""Animal control's questions to the rule engine, for a municipality on a date.

Every number a case shows comes from here; a refusal names the law it rests on."""

from dogtag import rules
from dogtag.licensing.law import answer, ask  # noqa: F401 (the one ask; animal control's modules read it here)
from dogtag.rules.decision import citations_json


def cites(decision: rules.Decision) -> list[dict]:
    return citations_json(decision.citations)


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
