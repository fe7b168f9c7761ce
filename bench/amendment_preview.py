"""An amendment's preview at scale: a fee change over every licensed animal of a year, run
through the law in force and the law as amended (`reports.amendment_preview.compare`: the read,
the batch engine twice, the county's share, the owners' distribution, the affected list), beside
the batch engine's own time on the same records (`rules.licensing_many.decide_many` under both laws,
the rows already in memory, grouped by day of issue).

    .venv/bin/python bench/amendment_preview.py        # BENCH_SCALE=10k|100k|1m (default 100k)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dogtag_bench .venv/bin/python bench/amendment_preview.py

Measures:
- amendment_preview.time: the preview's wall seconds; goal <= 10 s at 100,000 licenses (issue's
  figure), the ratio against the batch engine alone beside it.
"""

from __future__ import annotations

import os
import tempfile
from datetime import date
from decimal import Decimal
from itertools import groupby
from operator import itemgetter

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("DOGTAG_VAR_DIR", tempfile.mkdtemp(prefix="dogtag-bench-amendment-"))

import django  # noqa: E402
from _fixtures import analyze, bulk_animals, bulk_licenses, ensure_postgres_database, vendor  # noqa: E402
from _harness import Bench  # noqa: E402

ensure_postgres_database()
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from dogtag.licensing.law import TRAINED_TO, local_amounts  # noqa: E402
from dogtag.licensing.models import FeeScheduleEntry, License  # noqa: E402
from dogtag.registry import amending  # noqa: E402
from dogtag.registry.models import Amendment, Animal, Municipality  # noqa: E402
from dogtag.reports import amendment_preview  # noqa: E402
from dogtag.rules.licensing_many import decide_many  # noqa: E402

YEAR = 2027
GOAL_S = 10.0
WORDS = "The license tax shall be $12.00 for a spayed or neutered dog and $22.00 for any other dog."


def setup(bench: Bench):
    call_command("migrate", verbosity=0)
    m, _ = Municipality.objects.get_or_create(
        slug="benton",
        defaults={"name": "Village of Benton", "kind": "village", "county": "Lafayette", "rule_pack": "wi-benton"},
    )
    clerk, _ = get_user_model().objects.get_or_create(username="bench-clerk")
    for key, amount in (("license_tax.altered", "10.00"), ("license_tax.unaltered", "20.00"), ("late_fee", "5.00")):
        FeeScheduleEntry.objects.get_or_create(
            municipality=m,
            key=key,
            effective_on=date(2020, 1, 1),
            defaults={"amount": Decimal(amount), "authority": "bench", "created_by": clerk},
        )
    n = bench.size
    if License.objects.filter(municipality=m, license_year=YEAR).count() < n:
        first = bulk_animals(m, n, vaccinated=None)
        bulk_licenses(m, first, n, year=YEAR, issued_by_id=clerk.pk)
        # Every third dog spayed or neutered; issued over the year (late fees after April 1).
        table, animals = License._meta.db_table, Animal._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(f"UPDATE {animals} SET altered = (id %% 3 = 0) WHERE municipality_id = %s", [m.pk])
            shift = "CAST(id %% 300 AS integer)" if vendor() == "postgresql" else "id %% 300"
            cursor.execute(
                f"UPDATE {table} SET issued_on = "
                + (
                    f"DATE '{YEAR}-01-02' + {shift}"
                    if vendor() == "postgresql"
                    else f"date('{YEAR}-01-02', '+' || ({shift}) || ' days')"
                )
                + " WHERE municipality_id = %s AND license_year = %s",
                [m.pk, YEAR],
            )
        if vendor() == "postgresql":
            analyze()
    overlay = amending.provisions(
        amending.packs.load_pack(m.rule_pack),
        "license_tax",
        {"altered": Decimal("12.00"), "unaltered": Decimal("22.00")},
        "§ 173-1",
        WORDS,
        date(YEAR, 1, 1),
    )
    amendment, _ = Amendment.objects.get_or_create(
        municipality=m,
        title="Raise the license tax",
        defaults={
            "kind": "license_tax",
            "section": "§ 173-1",
            "words": WORDS,
            "provisions": overlay,
            "effective_on": date(YEAR, 1, 1),
            "drafted_by": clerk,
        },
    )
    return m, amendment


def main():
    bench = Bench("amendment_preview")
    m, amendment = setup(bench)
    rows = list(amendment_preview.licenses_of(m, YEAR))
    bench.note(f"{len(rows):,} licenses of {YEAR}, issued over {len({r[5] for r in rows})} days")
    current, amended = amendment_preview.laws(m, amendment, YEAR)
    local = local_amounts(m)
    days = [
        (on, [(r[6], False, YEAR, r[8], r[9], TRAINED_TO.get(r[7]), r[10]) for r in group])
        for on, group in groupby(rows, key=itemgetter(5))
    ]
    result = {}

    def preview():
        result["r"] = amendment_preview.compare(m, amendment, YEAR)

    def engine():
        for on, facts in days:
            decide_many(current(on), facts, on, local, "license_charges")
            decide_many(amended(on), facts, on, local, "license_charges")

    runs = bench.interleave({"dogtag": preview, "floor": engine}, repetitions=3, label=f"{len(rows):,} licenses")
    r = result["r"]
    bench.note(
        f"totals: law in force ${r['total'][0]}, as amended ${r['total'][1]}; county ${r['county'][0]} / "
        f"${r['county'][1]}; {len(r['affected']):,} affected; {r['decisions']:,} decisions"
    )
    wall = runs["dogtag"].wall.median
    cpu = runs["dogtag"].cpu.median
    bench.note(f"this process's CPU: preview {cpu:.2f} s, batch engine {runs['floor'].cpu.median:.2f} s")
    bench.result(
        "amendment_preview.time",
        ratio=runs.ratio("wall"),
        value=wall,
        unit="s",
        goal=f"<={GOAL_S:.0f}s",
        met=wall <= GOAL_S,
    )


if __name__ == "__main__":
    main()
