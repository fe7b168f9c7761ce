"""Import speed: a roll of 100,000 rows (owners, dogs, rabies certificates, past licenses) read,
planned (matched and validated) and written into one municipality, then run again (which must add
nothing). Prints the seconds for each stage and the rows per second.

    .venv/bin/python bench/import.py                 # SQLite in a temporary folder
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dogtag_bench .venv/bin/python bench/import.py
"""

import csv
import io
import os
import sys
import tempfile
import time

ROWS = int(os.environ.get("BENCH_ROWS", 100_000))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
os.environ.setdefault("DOGTAG_VAR_DIR", tempfile.mkdtemp(prefix="dogtag-bench-"))
sys.path.insert(0, os.path.dirname(__file__))

from counter import ensure_postgres_database  # noqa: E402

ensure_postgres_database()

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from dogtag.imports.rolls import COLUMNS  # noqa: E402


def roll(rows: int) -> bytes:
    """Rows of two dogs per owner; every fourth row repeats a dog for an earlier license year."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for i in range(rows):
        owner = i // 2
        dog = i
        year = 2025 if i % 4 else 2024
        altered = i % 3 == 0
        writer.writerow(
            [
                f"Owner {owner}",
                f"{owner} Main Street",
                "Benton",
                "WI",
                "53803",
                "",
                "",
                f"Dog {dog}",
                "dog",
                "Mixed",
                "brown",
                "female" if i % 2 else "male",
                "yes" if altered else "no",
                "clinic record" if altered else "",
                "2020-03-01",
                "",
                f"98511{i:010d}",
                f"B-{i}",
                "2024-06-01",
                "2027-06-01",
                "killed virus, 3-year",
                "LOT-1",
                "Dr. Vet",
                "1 Clinic Rd",
                "608-555-0100",
                f"RT-{i}",
                year,
                1000 + i,
                f"{year}-02-01",
                "5.00" if altered else "10.00",
                "0.00",
            ]
        )
    return out.getvalue().encode()


def main():
    call_command("migrate", verbosity=0)
    call_command("demo", stdout=io.StringIO())
    path = os.path.join(tempfile.mkdtemp(prefix="dogtag-roll-"), "roll.csv")
    with open(path, "wb") as f:
        f.write(roll(ROWS))
    from dogtag.imports.actions import run_import
    from dogtag.imports.rolls import plan
    from dogtag.registry.models import Animal, Municipality

    benton = Municipality.objects.get(slug="benton")
    user = benton.memberships.filter(role="clerk").first().user
    content = open(path, "rb").read()
    t0, c0 = time.perf_counter(), time.process_time()
    found = plan(benton, "roll.csv", content)
    t1, c1 = time.perf_counter(), time.process_time()
    run = run_import(found, acting_user=user, municipality=benton)
    t2, c2 = time.perf_counter(), time.process_time()
    again = plan(benton, "roll.csv", content)
    t3 = time.perf_counter()
    engine = os.environ.get("DATABASE_URL", "sqlite").split(":")[0]
    print(f"import bench ({engine}): {ROWS:,} rows, {found.valid:,} valid, {len(found.problems)} problems")
    print(f"  plan (read, match, validate): {t1 - t0:6.1f} s wall, {c1 - c0:6.1f} s CPU")
    print(f"  write ({run.batches.count()} batches):         {t2 - t1:6.1f} s wall, {c2 - c1:6.1f} s CPU")
    print(
        f"  total:                        {t2 - t0:6.1f} s wall, {c2 - c0:6.1f} s CPU ({ROWS / (t2 - t0):,.0f} rows/s)"
    )
    print(f"  load average when done: {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    print(f"  rerun plan: {again.valid} to import, {again.already:,} already imported ({t3 - t2:.1f} s)")
    print(f"  animals in Benton: {Animal.objects.filter(municipality=benton).count():,}")
    assert again.valid == 0


if __name__ == "__main__":
    main()
