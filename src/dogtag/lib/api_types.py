"""Types the API's response schemas share: what a record keeps of the law, typed in the OpenAPI
document as the engine writes it (rules `Decision.to_json`), though kept as plain JSON."""

from typing import Annotated, Any

from pydantic import WithJsonSchema

from dogtag.rules.catalogue import CITATION_SCHEMA, decision_schema, get_question

Citations = Annotated[list[dict[str, Any]], WithJsonSchema({"type": "array", "items": CITATION_SCHEMA})]


def stored_decision(*questions: str) -> Any:
    """A decision kept on a record: its value typed by each question's value schema. The schema only
    describes (WithJsonSchema): a record written under an older value shape is still sent."""
    schema = decision_schema(*(get_question(q).value_schema() for q in questions))
    schema["description"] = f"the engine's answer to {' or '.join(questions)}, as kept on the record"
    return Annotated[dict[str, Any], WithJsonSchema(schema)]
