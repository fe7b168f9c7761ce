"""Dogtag's rules engine: the law as data (`dogtag/law/*.yaml`), answered with citations.

Pure Python; imports nothing from Django. Entry points::

    from dogtag.rules import ask
    decision = ask("wi-benton", "license_tax", {...}, on=date(2025, 4, 2), local_amounts={...})
    decision.value, decision.citations, decision.not_set, decision.to_json()

Adding law:
- a topic module in this package (e.g. `rules/quarantine.py`) registers its pack section with
  `@section("name")` (a `Strict` model whose fields are `Provision`s, each with
  `cite: {section, quote}`) and its questions with `@question(name, facts=<Facts model>, doc=...)`;
  `catalogue.load_topics` imports every module here, so nothing else needs editing;
- the pack YAML (`dogtag/law/<id>.yaml`) gets the section; municipal packs override the state's
  provisions one by one; amounts delegated to a fee schedule are `{local: <key>}` and answer
  `not_set` until the clerk sets them (`local_amounts` input);
- cases go in `tests/rules/cases/<jurisdiction>/<topic>.yaml` (see tests/rules/test_cases.py).

See `catalogue` (questions; `PackSet` marks a fact whose values a pack names), `schema` (pack
building blocks, section registry), `packs` (loading, inheritance, quote checks), `time` (the one
computation of time, s. 990.001(4)), `calendars` (legal holidays, court days, election days),
`dates` (calendar arithmetic), `coverage`, `facts_schema` (`rules list --pack`), `cli`.
"""

from .amounts import LocalAmounts
from .catalogue import QUESTIONS, FactRefused, Facts, ask, get_question, load_topics, question
from .decision import Citation, Decision, NotSet, to_json
from .packs import Pack, PackError, all_packs, load_pack
from .schema import (
    Amount,
    Cite,
    Dated,
    LocalAmount,
    Money,
    MonthDay,
    Period,
    Provision,
    Strict,
    register_section,
    section,
)

__all__ = [
    "Amount",
    "Citation",
    "Cite",
    "Dated",
    "Decision",
    "FactRefused",
    "Facts",
    "LocalAmount",
    "LocalAmounts",
    "MonthDay",
    "Money",
    "NotSet",
    "Pack",
    "PackError",
    "Period",
    "Provision",
    "QUESTIONS",
    "Strict",
    "all_packs",
    "ask",
    "get_question",
    "load_pack",
    "load_topics",
    "question",
    "register_section",
    "section",
    "to_json",
]
