"""Each question's facts as a JSON Schema, in general or specialised to one pack.

`rules list` prints the general schema: a fact a pack names (`catalogue.PackSet`) is there a
string (or the engine's whole vocabulary) described as such. `rules list --pack <id>` prints the
schema of that pack: each such fact is a `$ref` to a `$defs` entry listing the values the pack
names (the sections its forfeiture schedules name, the standards of shelter, the kinds of
prohibited animal, ...), with the provision and section that name them. A closed set is an
`enum` (the engine refuses any other value, naming the fact, rule and section); an open one is
the pack's `enum` beside any other value, whose meaning the schema says. Beside the facts, the
local amounts the question reads in that pack (`local_amounts_schema`): the keys of the
provisions it reads that leave an amount to the fee schedule (`delegations.delegated_amounts`).
"""

from __future__ import annotations

import copy
from typing import Any

from .catalogue import PACK_SET, Question, pack_sets
from .coverage import questions_reading
from .packs import Pack
from .schema import Dated, LocalAmount

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _markers(question: Question) -> dict:
    return {m.name: m for _, m, _ in pack_sets(question.facts)}


def _replace(node: Any, visit) -> Any:
    if isinstance(node, dict):
        if PACK_SET in node:
            return visit(node)
        return {k: _replace(v, visit) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace(v, visit) for v in node]
    return node


def general(question: Question) -> dict[str, Any]:
    """The facts schema without a pack: a fact a pack names says so in its description."""
    markers = _markers(question)

    def visit(node: dict) -> dict:
        marker = markers[node.pop(PACK_SET)]
        node["description"] = f"{marker.describe}: `rules list --pack <id>` lists a pack's"
        return node

    return {"$schema": DRAFT, **_replace(question.facts.model_json_schema(), visit)}


def for_pack(question: Question, pack: Pack) -> dict[str, Any]:
    """The facts schema specialised to `pack`, complete under `$defs`."""
    markers = _markers(question)
    defs: dict[str, Any] = {}

    def visit(node: dict) -> dict:
        marker = markers[node.pop(PACK_SET)]
        title = node.pop("title", None)
        values = marker.of(pack)
        if values is None:
            node["description"] = f"{marker.describe}; this pack names none: any value is answered alike"
            return {**node, **({"title": title} if title else {})}
        where = f"{values.rule}: {', '.join(values.sections)}"
        if marker.closed:
            entry: dict[str, Any] = {"type": "string", "enum": list(values.values)}
            if values.pattern is not None:
                entry = {"anyOf": [entry, {"type": "string", "pattern": values.pattern}]}
            entry["description"] = f"{marker.describe} ({where}); any other is refused"
        else:
            other = copy.deepcopy(node)
            other["description"] = f"any other: {marker.other}" if marker.other else "any other"
            named = {"type": "string", "enum": list(values.values), "description": f"{marker.describe} ({where})"}
            entry = {"anyOf": [named, other]}
        defs[marker.name] = entry
        return {"$ref": f"#/$defs/{marker.name}", **({"title": title} if title else {})}

    schema = _replace(question.facts.model_json_schema(), visit)
    if defs:
        schema["$defs"] = {**schema.get("$defs", {}), **defs}
    return {"$schema": DRAFT, **schema}


def local_amount_provisions(pack: Pack) -> dict[str, str]:
    """Each local amount key of the pack, with the provision (`section.key`) that declares it."""
    found: dict[str, str] = {}

    def walk(value: Any, path: str) -> None:
        if isinstance(value, LocalAmount):
            found.setdefault(value.local, path)
        elif isinstance(value, Dated):
            for v in value.values:
                walk(v, path)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v, path)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, path)
        elif hasattr(type(value), "model_fields"):
            for key in type(value).model_fields:
                walk(getattr(value, key), path)

    for name, model in pack.sections.items():
        for key in type(model).model_fields:
            walk(getattr(model, key), f"{name}.{key}")
    return found


def local_amounts(question: Question, pack: Pack) -> dict[str, str]:
    """The local amount keys `question` may read in `pack`, each with its provision: those of the
    provisions its code reads (`coverage.questions_reading`)."""
    return {
        key: path
        for key, path in sorted(local_amount_provisions(pack).items())
        if question.name in questions_reading(path)
    }


def local_amounts_schema(keys: dict[str, str]) -> dict[str, Any]:
    """The `local_amounts` input (`{key: {date: amount}}`) with the keys the question reads."""
    money = {"type": "string", "pattern": r"^\d+(\.\d{1,2})?$"}
    dated = {
        "type": "object",
        "propertyNames": {"type": "string", "format": "date"},
        "additionalProperties": {"anyOf": [money, {"type": "null"}]},
        "description": "amounts by effective date; null ends one",
    }
    return {
        "$schema": DRAFT,
        "type": "object",
        "properties": {
            key: {"$ref": "#/$defs/DatedAmount", "description": f"set by the fee schedule ({path})"}
            for key, path in keys.items()
        },
        "additionalProperties": {"$ref": "#/$defs/DatedAmount"},
        "description": "the fee schedule's amounts; a key this question does not read is ignored",
        "$defs": {"DatedAmount": dated},
    }
