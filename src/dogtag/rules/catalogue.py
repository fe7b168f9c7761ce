"""The question catalogue: `@question(name, facts=<model>, doc=...)` and `ask(...)`.

A question is a pure function `(pack, facts, on, local_amounts) -> Decision`. Topic modules in
this package register their questions (and pack sections) on import; `load_topics` imports
every module of the package, so a new topic module needs no registration anywhere else.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from pydantic import BaseModel, ConfigDict

from .amounts import LocalAmounts
from .decision import Decision


class Facts(BaseModel):
    """Base for the facts a question takes: unknown keys are an error."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class Question:
    name: str
    facts: type[BaseModel]
    doc: str
    decide: Callable[..., Decision]


QUESTIONS: dict[str, Question] = {}
_NOT_TOPICS = {"cli", "catalogue", "packs", "schema", "decision", "amounts", "dates"}


def question(name: str, *, facts: type[BaseModel], doc: str):
    def register(func: Callable[..., Decision]) -> Callable[..., Decision]:
        if name in QUESTIONS and QUESTIONS[name].decide is not func:
            raise ValueError(f"question {name!r} is registered twice")
        QUESTIONS[name] = Question(name, facts, doc, func)
        return func

    return register


_loaded = False


def load_topics() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    package = importlib.import_module(__package__)
    for info in pkgutil.iter_modules(package.__path__):
        if info.name not in _NOT_TOPICS and not info.name.startswith("_"):
            importlib.import_module(f"{__package__}.{info.name}")


def get_question(name: str) -> Question:
    load_topics()
    try:
        return QUESTIONS[name]
    except KeyError:
        raise KeyError(f"no question {name!r}; known: {', '.join(sorted(QUESTIONS))}") from None


def ask(jurisdiction: str, question: str, facts: Mapping[str, Any], on: date,
        local_amounts: Mapping[str, Mapping[Any, Any]] | LocalAmounts | None = None) -> Decision:
    """Answer `question` under `jurisdiction`'s law on date `on` for `facts`."""
    from .packs import load_pack

    q = get_question(question)
    pack = load_pack(jurisdiction)
    return q.decide(pack, q.facts.model_validate(dict(facts)), on, LocalAmounts.of(local_amounts))
