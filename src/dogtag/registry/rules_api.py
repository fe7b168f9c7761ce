"""POST /api/v1/rules/ask: the engine's catalogue over HTTP, the same as `dogtag rules ask`.
The law is public, so this needs no login. `jurisdiction` is a rule pack (the law as Dogtag reads
it) or a municipality's slug: then its pack with its rulings, each from its effective date, so the
answer follows the rulings in force on `on`."""

from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from ninja import Router, Schema
from pydantic import ValidationError as FactsError

from dogtag import rules
from dogtag.registry.rulings import of_municipality
from dogtag.rules.packs import PackError, pack_ids

router = Router(tags=["rules"])


class AskIn(Schema):
    jurisdiction: str
    question: str
    on: date
    facts: dict[str, Any] = {}
    local_amounts: dict[str, dict[date, str]] | None = None


@router.post("/rules/ask", auth=None)
def ask(request, payload: AskIn):
    pack_id, rulings = payload.jurisdiction, []
    if pack_id not in pack_ids():
        pack_id, rulings = of_municipality(payload.jurisdiction) or (pack_id, [])
    try:
        decision = rules.ask(pack_id, payload.question, payload.facts, payload.on, payload.local_amounts, rulings)
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
