"""POST /api/v1/rules/ask: the engine's catalogue over HTTP, the same as `dogtag rules ask`.
The law is public, so this needs no login."""

from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from ninja import Router, Schema
from pydantic import ValidationError as FactsError

from dogtag import rules
from dogtag.rules.packs import PackError

router = Router(tags=["rules"])


class AskIn(Schema):
    jurisdiction: str
    question: str
    on: date
    facts: dict[str, Any] = {}
    local_amounts: dict[str, dict[date, str]] | None = None


@router.post("/rules/ask", auth=None)
def ask(request, payload: AskIn):
    try:
        decision = rules.ask(payload.jurisdiction, payload.question, payload.facts, payload.on, payload.local_amounts)
    except KeyError as e:
        raise ValidationError({"question": [e.args[0]]}) from None
    except PackError as e:
        raise ValidationError({"jurisdiction": [str(e)]}) from None
    except FactsError as e:
        raise ValidationError(
            {"facts." + ".".join(str(p) for p in err["loc"]): [err["msg"]] for err in e.errors()}
        ) from None
    except rules.FactRefused as e:  # a value the pack does not name (a violation, a standard of shelter)
        raise ValidationError({f"facts.{e.path}": [str(e)]}) from None
    except ValueError as e:  # facts of the right shape this law cannot answer ("mailed_on is required")
        raise ValidationError({"facts": [str(e)]}) from None
    return decision.to_json()
