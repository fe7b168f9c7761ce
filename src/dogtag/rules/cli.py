"""`rules ask`, `rules list` and `law coverage` on the command line, JSON out.

    python -m dogtag.rules.cli rules ask wi-benton license_charges --on 2025-04-02 --facts dog.json
    dogtag rules ask benton license_charges --on 2025-04-02 --facts dog.json
    python -m dogtag.rules.cli rules list
    python -m dogtag.rules.cli rules list --pack wi-webster
    python -m dogtag.rules.cli law coverage wi-cedarburg

The `dogtag` console command wires the same `main(argv)`. A jurisdiction is a rule pack (the law
as Dogtag reads it, every reading on its default) or, through `dogtag`, a municipality's slug: the
law as that municipality has ruled, each ruling from its effective date (`municipal`, which reads
the database; the engine here stays free of it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from datetime import date
from typing import Any, TextIO

from . import facts_schema
from .amounts import LocalAmounts
from .catalogue import QUESTIONS, ask, load_topics
from .coverage import coverage
from .decision import to_json
from .limits import fee_schedule_errors
from .packs import PackError, load_pack, pack_ids, pack_on
from .schema import Ruled

# A municipality's slug -> its pack id and rulings (reading id, Ruled), or None: given by `dogtag`.
Municipal = Callable[[str], "tuple[str, list[tuple[str, Ruled]]] | None"]


def _read_json(name: str, stdin: TextIO) -> Any:
    if name == "-":
        return json.load(stdin)
    with open(name, encoding="utf-8") as f:
        return json.load(f)


def _questions(pack_id: str | None = None) -> list[dict]:
    """Each question with its facts and value schemas; with `pack_id`, the facts schema of that
    pack (the values it names under `$defs`) and the local amounts the question reads there."""
    load_topics()
    pack = load_pack(pack_id) if pack_id is not None else None
    rows = []
    for name in sorted(QUESTIONS):
        q = QUESTIONS[name]
        schema = facts_schema.general(q) if pack is None else facts_schema.for_pack(q, pack)
        row = {"question": name, "doc": q.doc}
        if pack is not None:
            row["jurisdiction"] = pack.id
        row.update(
            {
                "facts": schema.get("properties", {}),
                "required": schema.get("required", []),
                "facts_schema": schema,
                "value_schema": q.value_schema(),
            }
        )
        if pack is not None:
            keys = facts_schema.local_amounts(q, pack)
            row["local_amounts"] = keys
            row["local_amounts_schema"] = facts_schema.local_amounts_schema(keys)
        rows.append(row)
    return rows


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dogtag", description="Ask the ordinance engine.")
    top = p.add_subparsers(dest="group", required=True)
    rules = top.add_parser("rules").add_subparsers(dest="command", required=True)
    a = rules.add_parser("ask", help="answer a question as JSON")
    a.add_argument("jurisdiction", help="a rule pack (wi-benton) or a municipality's slug (benton): its rulings apply")
    a.add_argument("question")
    a.add_argument("--on", required=True, type=date.fromisoformat, help="the date, YYYY-MM-DD")
    a.add_argument("--facts", required=True, help="a JSON file of facts, or - for stdin")
    a.add_argument("--local-amounts", help="a JSON file: {key: {date: amount}}")
    ls = rules.add_parser("list", help="the questions and the facts each takes")
    ls.add_argument("--pack", help="a jurisdiction: its facts schemas (the values it names) and local amounts")
    law = top.add_parser("law").add_subparsers(dest="command", required=True)
    c = law.add_parser("coverage", help="each section of the text and what encodes it")
    c.add_argument("jurisdiction")
    return p


def _jurisdiction(name: str, municipal: Municipal | None) -> tuple[str, list[tuple[str, Ruled]]]:
    """A rule pack as written, or a municipality's pack with its rulings."""
    if name in pack_ids() or municipal is None:
        return name, []
    found = municipal(name)
    if found is None:
        raise ValueError(f"no rule pack or municipality {name!r}; packs: {', '.join(pack_ids())}")
    return found


def _refuse_out_of_limits(pack_id: str, raw: Any, on: date, rulings: list[tuple[str, Ruled]]) -> None:
    """A fee schedule that breaks the state's limits (s. 174.05) is refused, every breach named."""
    errors = fee_schedule_errors(pack_on(pack_id, on, rulings), LocalAmounts.of(raw))
    if errors:
        raise ValueError("the local amounts break the state's limits: " + "; ".join(errors))


def main(
    argv: list[str] | None = None,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    municipal: Municipal | None = None,
) -> int:
    args = parser().parse_args(argv)
    try:
        if args.group == "rules" and args.command == "ask":
            local = _read_json(args.local_amounts, stdin) if args.local_amounts else None
            pack_id, rulings = _jurisdiction(args.jurisdiction, municipal)
            if local:
                _refuse_out_of_limits(pack_id, local, args.on, rulings)
            facts = _read_json(args.facts, stdin)
            decision = ask(pack_id, args.question, facts, args.on, local, rulings=rulings)
            out: Any = decision.to_json()
        elif args.group == "rules":
            out = _questions(args.pack)
        else:
            out = coverage(args.jurisdiction)
    except (KeyError, ValueError, PackError, OSError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        print(json.dumps({"error": message}), file=sys.stderr)
        return 2
    json.dump(to_json(out), stdout, indent=2, ensure_ascii=False)
    stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
