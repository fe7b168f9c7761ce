"""The question catalogue: `@question(name, facts=<model>, doc=...)` and `ask(...)`.

A question is a pure function `(pack, facts, on, local_amounts) -> Decision`. Topic modules in
this package register their questions (and pack sections) on import; `load_topics` imports
every module of the package, so a new topic module needs no registration anywhere else.

Loading happens once per process, completely, under `LOCK`, before anything reads the
catalogue: a web server's threads starting together must never see a half-filled catalogue.
Django loads everything at app ready (registry's AppConfig calls `load_all`); a notebook or a
batch job gets the same on first use. Afterwards the catalogue and the section registry are
read-only (`QUESTIONS` and `SECTIONS` are `MappingProxyType` views; registering raises).
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter

from .amounts import LocalAmounts
from .decision import Decision
from .schema import seal_sections


class Facts(BaseModel):
    """Base for the facts a question takes: unknown keys are an error."""

    model_config = ConfigDict(extra="forbid")


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

    def value_schema(self) -> dict[str, Any] | None:
        """The JSON Schema of the value as `Decision.to_json` writes it (money and dates as strings)."""
        if self.value is None:
            return None
        return TypeAdapter(self.value).json_schema(mode="serialization")


_QUESTIONS: dict[str, Question] = {}
QUESTIONS: Mapping[str, Question] = MappingProxyType(_QUESTIONS)
# Reentrant: loading a pack loads its parent and the topics while holding it.
LOCK = threading.RLock()
_NOT_TOPICS = {"cli", "catalogue", "packs", "schema", "decision", "amounts", "dates"}


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
) -> Decision:
    """Answer `question` under `jurisdiction`'s law on date `on` for `facts`."""
    from .packs import load_pack

    q = get_question(question)
    pack = load_pack(jurisdiction)
    return q.decide(pack, q.facts.model_validate(dict(facts)), on, LocalAmounts.of(local_amounts))
