"""A new forfeiture schedule previewed on the municipality's citations: each citation of the chosen
year not voided (by the day of the violation) priced by the forfeiture question under the law in
force and under the law as amended, on the day of the violation, at its offense number and days.

A citation's price under a law is the range the engine answers over the offenses counted
(`total_minimum` to `total_maximum`); one the law does not price (no schedule, no figure for the
offense number, an amount not set) counts as not priced. The result: totals of the minimum and
the maximum under each law, by violation; how many citations would cost more, less or the same
(by their minimum); and every affected citation.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from dogtag import rules
from dogtag.enforcement.models import Citation
from dogtag.licensing.law import local_amounts
from dogtag.rules.decision import ZERO

LAWS = ("current", "amended")


def citations_of(municipality, year: int):
    """(pk, person, violation, violated_on, offense_number, days) of the year's citations not voided."""
    return (
        Citation.objects.filter(municipality=municipality, violated_on__year=year, voided_at=None)
        .order_by("violated_on", "pk")
        .values_list("pk", "person__name", "violation", "violated_on", "offense_number", "days")
    )


def price(question, pack, local, violation: str, offense_number: int, days: int, on) -> tuple | None:
    """(minimum, maximum) over the offenses counted, or None where the law prices no forfeiture."""
    try:
        facts = question.facts(violation=violation, offense_number=offense_number, days=days)
        decision = question.answer(pack, facts, on, local)
    except ValueError:  # a violation no schedule of this law names
        return None
    v = decision.value
    if not v.applies or v.total_minimum is None or v.total_maximum is None:
        return None
    return v.total_minimum, v.total_maximum


def compare(municipality, current, amended, year: int, rows=None) -> dict:
    """The preview's figures (JSON-able); `current` and `amended` give the pack on a day."""
    question = rules.get_question("forfeiture")
    local = local_amounts(municipality)
    rows = list(citations_of(municipality, year) if rows is None else rows)
    by_violation: dict[str, dict] = defaultdict(lambda: {"n": 0, "current": ZERO, "amended": ZERO})
    totals = {law: [ZERO, ZERO] for law in LAWS}
    not_priced = dict.fromkeys(LAWS, 0)
    more = less = same = 0
    affected = []
    for pk, person, violation, on, number, days in rows:
        priced = {
            law: price(question, get(on), local, violation, number, days, on)
            for law, get in (("current", current), ("amended", amended))
        }
        row = by_violation[violation]
        row["n"] += 1
        for law, p in priced.items():
            if p is None:
                not_priced[law] += 1
                continue
            totals[law][0] += p[0]
            totals[law][1] += p[1]
            row[law] += p[0]
        now, then = (priced[law] or (None, None) for law in LAWS)
        low_now, low_then = now[0] or ZERO, then[0] or ZERO
        more += low_then > low_now
        less += low_then < low_now
        same += low_then == low_now
        if now != then:
            affected.append(
                [pk, person, violation, str(on), number, *(_money(x) for x in (*now, *then)), str(low_then - low_now)]
            )
    return {
        "year": year,
        "citations": len(rows),
        "decisions": 2 * len(rows),
        "by_violation": [
            [v, r["n"], str(r["current"]), str(r["amended"]), str(r["amended"] - r["current"])]
            for v, r in sorted(by_violation.items())
        ],
        "minimum": [str(totals["current"][0]), str(totals["amended"][0])],
        "maximum": [str(totals["current"][1]), str(totals["amended"][1])],
        "not_priced": [not_priced["current"], not_priced["amended"]],
        "more": more,
        "less": less,
        "same": same,
        "affected": affected,
    }


def _money(amount: Decimal | None) -> str:
    return "" if amount is None else str(amount)
