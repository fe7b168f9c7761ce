"""Types the API's schemas share: a payment received, and what a record keeps of the law, typed
in the OpenAPI document as the engine writes it (rules `Decision.to_json`), though kept as plain
JSON."""

from decimal import Decimal
from typing import Annotated, Any

from ninja import Field, Schema
from pydantic import WithJsonSchema

from dogtag.rules.catalogue import CITATION_SCHEMA, decision_schema, get_question

# An amount of money paid: dollars and cents, never negative (a number like 1e400 or "NaN" is no payment).
Paid = Annotated[Decimal, Field(ge=0, max_digits=12, decimal_places=2, allow_inf_nan=False)]


class PaymentIn(Schema):
    method: str
    amount: Paid
    check_number: str = ""
    card_reference: str = ""


Citations = Annotated[list[dict[str, Any]], WithJsonSchema({"type": "array", "items": CITATION_SCHEMA})]


def stored_decision(*questions: str) -> Any:
    """A decision kept on a record: its value typed by each question's value schema. The schema only
    describes (WithJsonSchema): a record written under an older value shape is still sent."""
    schema = decision_schema(*(get_question(q).value_schema() for q in questions))
    schema["description"] = f"the engine's answer to {' or '.join(questions)}, as kept on the record"
    return Annotated[dict[str, Any], WithJsonSchema(schema)]
