"""The question catalogue: `@question(name, facts=<model>, doc=...)` and `ask(...)`.

A question is a pure function `(pack, facts, on, local_amounts) -> Decision`. Topic modules in
this package register their questions (and pack sections) on import; `load_topics` imports
every module of the package, so a new topic module needs no registration anywhere else.

Loading happens once per process, completely, under `LOCK`, before anything reads the
catalogue: a web server's threads starting together must never see a half-filled catalogue.
Django loads everything at app ready (registry's AppConfig calls `load_all`); a notebook or a
batch job gets the same on first use. Afterwards the catalogue and the section registry are
read-only (`QUESTIONS` and `SECTIONS` are `MappingProxyType` views; registering raises).

A fact whose values a pack names (the sections its forfeiture schedules list, its standards of
shelter, the kinds of animal it prohibits) is `Annotated[str, PackSet(...)]`: `rules list --pack`
lists the pack's values (`facts_schema`), and `Question.answer` (what `ask` calls) refuses a
value outside a closed set before deciding.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import threading
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from functools import cache
from types import MappingProxyType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, TypeAdapter

from .amounts import LocalAmounts
from .decision import Decision
from .gaps import with_gaps
from .schema import seal_sections


class Facts(BaseModel):
    """Base for the facts a question takes: unknown keys are an error."""

    model_config = ConfigDict(extra="forbid")


# The key a facts model's JSON Schema carries on a fact a pack names (`facts_schema` replaces it).
PACK_SET = "x-pack-set"


class FactRefused(ValueError):
    """A fact outside a closed set the pack names; `path` is the fact (`violation`, `met`)."""

    def __init__(self, path: str, message: str):
        self.path = path
        super().__init__(message)


@dataclass(frozen=True)
class PackValues:
    """The values one pack names for a fact: `rule` is the provision (`animals.shelter`) and
    `sections` its citations. `pattern` (an anchored regex, the same in the engine and in the
    schema): other values that name one of them too (a violation of § 98-6B is one of § 98-6)."""

    values: tuple[str, ...]
    rule: str
    sections: tuple[str, ...]
    pattern: str | None = None

    def names(self, value: str) -> bool:
        return value in self.values or (self.pattern is not None and re.search(self.pattern, value) is not None)


@dataclass(frozen=True)
class PackSet:
    """Marks a fact whose values a pack names: `Annotated[str, PackSet(...)]`.

    `of(pack)` gives the pack's values, or None where the pack has no such rule (the question then
    answers that it has none, whatever the value). `closed`: a value the pack does not name is
    refused, naming the fact, the rule and its section (`refusal` words the start of it, with
    `{value}`). Open (`closed=False`): a value the pack does not name is a fact with an answer of
    its own (an excuse the ordinance does not list counts against the dog; a ground it does not
    list is no ground to impound), and the schema lists the pack's values beside any other,
    saying what another means (`other`). `name` is the `$defs` entry of `rules list --pack`."""

    name: str
    of: Callable[[Any], PackValues | None]
    describe: str
    closed: bool = False
    refusal: str = ""
    other: str = ""
    # (pack, value) -> why a value the pack as written names is not named under its rulings (a
    # ruling adopted a reading that leaves it out), naming the ruling; "" where none did.
    ruled_out: Callable[[Any, str], str] | None = None

    def __get_pydantic_json_schema__(self, core: Any, handler: Any) -> dict[str, Any]:
        schema = handler(core)
        schema[PACK_SET] = self.name
        return schema

    def refuse(self, question: str, path: str, values: PackValues, unknown: list[str], pack: Any) -> FactRefused:
        told = ", ".join(unknown)
        told = self.refusal.format(value=told) if self.refusal else f"{told} is not {self.describe} here"
        why = [w for w in (self.ruled_out(pack, v) for v in unknown) if w] if self.ruled_out else []
        if why:
            told += ": " + "; ".join(why)
        return FactRefused(
            path,
            f"{path}: {told} ({', '.join(values.sections)}); {question} reads {values.rule}; "
            f"known: {', '.join(values.values)}",
        )


def named_by(rule: str, provisions: Any, values: Any) -> PackValues:
    """`values` as named by the provision(s) at `rule` (`animals.shelter`), cited by their sections."""
    provisions = provisions if isinstance(provisions, (list, tuple)) else [provisions]
    sections = tuple(dict.fromkeys(c.section for p in provisions for c in p.citations()))
    return PackValues(tuple(dict.fromkeys(values)), rule, sections)


@cache
def pack_sets(model: type[BaseModel], prefix: str = "") -> tuple[tuple[str, PackSet, tuple[str, ...]], ...]:
    """The facts of `model` (and of the models it nests) a pack names: (path, marker, the attribute
    names from the facts down to the value)."""
    found: list[tuple[str, PackSet, tuple[str, ...]]] = []
    for name, info in model.model_fields.items():
        marker = next((m for m in info.metadata if isinstance(m, PackSet)), None) or _marker(info.annotation)
        if marker is not None:
            found.append((prefix + name, marker, (name,)))
        for nested in _models(info.annotation):
            for path, m, attrs in pack_sets(nested, f"{prefix}{name}[]."):
                found.append((path, m, (name, *attrs)))
    return tuple(found)


def _marker(annotation: Any) -> PackSet | None:
    if get_origin(annotation) is Annotated:
        hit = next((m for m in annotation.__metadata__ if isinstance(m, PackSet)), None)
        if hit is not None:
            return hit
    return next((hit for arg in get_args(annotation) if (hit := _marker(arg)) is not None), None)


def _models(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    if get_origin(annotation) in (Union, types.UnionType, list, tuple, Annotated):
        return [m for arg in get_args(annotation) for m in _models(arg)]
    return []


def _strings(value: Any, attrs: tuple[str, ...]) -> list[str]:
    """The values at `attrs` under `value` (through lists of nested facts), None left out."""
    items = value if isinstance(value, (list, tuple)) else [value]
    if not attrs:
        return [v for v in items if v is not None]
    return [s for v in items if v is not None for s in _strings(getattr(v, attrs[0]), attrs[1:])]


@dataclass(frozen=True)
class Question:
    name: str
    facts: type[BaseModel]
    doc: str
    decide: Callable[..., Decision]
    # The type of the Decision's value (a dataclass or pydantic model with named fields): its JSON
    # Schema is what `rules list` prints as value_schema. None only while the question still
    # answers a bare scalar (tests/rules/test_cli.py pins which ones).
    value: type | None = None

    def check(self, pack: Any, facts: BaseModel) -> None:
        """Refuse a fact outside a closed set the pack names, naming the fact, the rule and its section."""
        for path, marker, attrs in pack_sets(self.facts):
            if not marker.closed:
                continue
            values = marker.of(pack)
            if values is None:
                continue
            unknown = [v for v in _strings(facts, attrs) if not values.names(v)]
            if unknown:
                raise marker.refuse(self.name, path, values, sorted(set(unknown), key=unknown.index), pack)

    def answer(self, pack: Any, facts: BaseModel, on: date, local: LocalAmounts) -> Decision:
        """`decide`, after refusing a fact outside a closed set the pack names."""
        if self.closed:
            self.check(pack, facts)
        decision = self.decide(pack, facts, on, local)
        cited = {c.section for c in decision.citations}
        gaps = pack.text_gaps(self.name, on, facts, cited) if hasattr(pack, "text_gaps") else ()
        return with_gaps(decision, gaps)

    @property
    def closed(self) -> bool:
        return any(m.closed for _, m, _ in pack_sets(self.facts))

    def decision_schema(self) -> dict[str, Any]:
        """The JSON Schema of the whole `Decision.to_json` (what a record keeps and the API sends),
        the value typed by `value_schema`; self-contained (no `$ref`), to sit inside another
        document such as the OpenAPI one."""
        return decision_schema(self.value_schema())

    def value_schema(self) -> dict[str, Any] | None:
        """The JSON Schema of the value as `Decision.to_json` writes it (money and dates as strings)."""
        if self.value is None:
            return None
        return TypeAdapter(self.value).json_schema(mode="serialization")


_TEXT = {"type": "string"}
CITATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "jurisdiction": _TEXT,
        "section": _TEXT,
        "quote": _TEXT,
        "unconfirmed": {**_TEXT, "description": "why the text held does not confirm the figure"},
        "inferred": {**_TEXT, "description": "how a section number the text lost was restored"},
        "reading": {**_TEXT, "description": "the reading the provision takes where the text allows another"},
        "reading_status": {"type": "string", "enum": ["pending", "ruled"]},
        "ruled_by": {
            **_TEXT,
            "description": "the Board resolution or attorney's opinion that ruled, its number and date",
        },
        "other_reading": {**_TEXT, "description": "the other reading and what it would change"},
        "incomplete": {**_TEXT, "description": "the section's adopted text is cut off or missing in Dogtag"},
    },
    "required": ["jurisdiction", "section", "quote"],
    "additionalProperties": False,
}


READING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "section": _TEXT,
        "reading": _TEXT,
        "status": {"type": "string", "enum": ["pending", "ruled"]},
        "label": _TEXT,
        "other_reading": _TEXT,
        "ruled_by": _TEXT,
    },
    "required": ["section", "reading", "status"],
    "additionalProperties": False,
}


READING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "section": _TEXT,
        "reading": _TEXT,
        "status": {"type": "string", "enum": ["pending", "ruled"]},
        "label": _TEXT,
        "other_reading": _TEXT,
        "ruled_by": _TEXT,
    },
    "required": ["section", "reading", "status"],
    "additionalProperties": False,
}


def decision_schema(*values: dict[str, Any] | None) -> dict[str, Any]:
    """`Decision.to_json` whose value is one of `values` (value schemas; None: any)."""
    typed = [inline(v) for v in values if v is not None]
    value = {} if len(typed) < len(values) or not typed else typed[0] if len(typed) == 1 else {"anyOf": typed}
    return {
        "type": "object",
        "properties": {
            "value": value,
            "citations": {"type": "array", "items": CITATION_SCHEMA},
            "notes": {"type": "array", "items": _TEXT},
            "not_set": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"key": _TEXT, "citation": CITATION_SCHEMA},
                    "required": ["key", "citation"],
                    "additionalProperties": False,
                },
            },
            "unconfirmed": {"type": "array", "items": _TEXT},
            "status": {"type": "string", "enum": ["answered", "text_incomplete"]},
            "text_incomplete": {"type": "array", "items": _TEXT},
            "readings": {"type": "array", "items": READING_SCHEMA},
        },
        "required": ["value", "citations", "notes", "not_set", "unconfirmed"],
        "additionalProperties": False,
    }


def inline(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with each `#/$defs/...` reference replaced by the definition (the value types do
    not nest themselves), and no `$defs`."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                rest = {k: v for k, v in node.items() if k != "$ref"}
                return {**walk(defs[ref.removeprefix("#/$defs/")]), **walk(rest)}
            return {k: walk(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)


_QUESTIONS: dict[str, Question] = {}
QUESTIONS: Mapping[str, Question] = MappingProxyType(_QUESTIONS)
# Reentrant: loading a pack loads its parent and the topics while holding it.
LOCK = threading.RLock()
_NOT_TOPICS = {"cli", "catalogue", "packs", "schema", "decision", "amounts", "dates", "state_limits", "gaps"}


def question(name: str, *, facts: type[BaseModel], doc: str, value: type | None = None):
    def register(func: Callable[..., Decision]) -> Callable[..., Decision]:
        # No lock here: a topic module registers while it is imported, and importing one under
        # LOCK while another thread imports it would wait on both locks at once.
        if name in _QUESTIONS and _QUESTIONS[name].decide is not func:
            raise ValueError(f"question {name!r} is registered twice")
        if _loaded and name not in _QUESTIONS:
            raise RuntimeError(
                f"question {name!r} registered after the catalogue was loaded; "
                f"put it in a topic module of {__package__}"
            )
        _QUESTIONS[name] = Question(name, facts, doc, func, value)
        return func

    return register


_loaded = False


def load_topics() -> None:
    """Import every topic module (registering its questions and pack sections), once."""
    global _loaded
    if _loaded:
        return
    with LOCK:
        if _loaded:
            return
        package = importlib.import_module(__package__)
        for info in pkgutil.iter_modules(package.__path__):
            if info.name not in _NOT_TOPICS and not info.name.startswith("_"):
                importlib.import_module(f"{__package__}.{info.name}")
        seal_sections()
        # Marked only now, once every topic is in: another thread that saw `_loaded` false waits
        # on the lock above instead of reading a catalogue with half its sections.
        _loaded = True


def load_all() -> None:
    """The catalogue and every pack, loaded completely: call before serving (AppConfig.ready)."""
    from .packs import all_packs

    load_topics()
    all_packs()


def get_question(name: str) -> Question:
    load_topics()
    try:
        return QUESTIONS[name]
    except KeyError:
        raise KeyError(f"no question {name!r}; known: {', '.join(sorted(QUESTIONS))}") from None


def ask(
    jurisdiction: str,
    question: str,
    facts: Mapping[str, Any],
    on: date,
    local_amounts: Mapping[str, Mapping[Any, Any]] | LocalAmounts | None = None,
    rulings: Iterable[tuple[str, Any]] = (),
) -> Decision:
    """Answer `question` under `jurisdiction`'s law on date `on` for `facts`; `rulings` are the
    municipality's (reading id, `schema.Ruled`), applied from each one's date."""
    from .packs import pack_on

    q = get_question(question)
    pack = pack_on(jurisdiction, on, rulings)
    return q.answer(pack, q.facts.model_validate(dict(facts)), on, LocalAmounts.of(local_amounts))
