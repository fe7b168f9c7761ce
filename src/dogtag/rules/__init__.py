"""Dogtag's rules engine: the law as data (`dogtag/law/*.yaml`), answered with citations.

Pure Python; imports nothing from Django. Entry points::

    from dogtag.rules import ask
    decision = ask("wi-benton", "license_tax", {...}, on=date(2025, 4, 2), local_amounts={...})
    decision.value, decision.citations, decision.not_set, decision.to_json()

See `catalogue` (questions), `schema` (pack building blocks, section registry), `packs`
(loading, inheritance, quote checks).
"""
from .amounts import LocalAmounts
from .catalogue import QUESTIONS, Facts, ask, get_question, load_topics, question
from .decision import Citation, Decision, NotSet, to_json
from .packs import Pack, PackError, all_packs, load_pack
from .schema import Amount, Cite, Dated, LocalAmount, MonthDay, Money, Period, Provision, Strict, register_section, section

__all__ = [
    "Amount", "Citation", "Cite", "Dated", "Decision", "Facts", "LocalAmount", "LocalAmounts",
    "MonthDay", "Money", "NotSet", "Pack", "PackError", "Period", "Provision", "QUESTIONS",
    "Strict", "all_packs", "ask", "get_question", "load_pack", "load_topics", "question",
    "register_section", "section", "to_json",
]
