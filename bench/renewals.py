"""Renewal runs at scale: the clerk's action (notices by one INSERT ... SELECT) against the SQL
floor, and the worker printing the notices in parts, its peak memory at 1,000 and 5,000 notices
(it must stay flat) and its CPU per 1,000 notices against one document for the whole batch (how
the run printed before it was cut in parts).

    .venv/bin/python bench/renewals.py                 # BENCH_SCALE=10k|100k|1m (default 100k)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dogtag_bench .venv/bin/python bench/renewals.py
    BENCH_PDF_SIZES=1000,5000 (default) the batch sizes the worker prints

Measures:
- renewals.notices: start_renewal_run for every dog at scale; floor: one INSERT ... SELECT of the
  same rows (the owner by a join, the printed order by ROW_NUMBER). Wall seconds of each side's
  own work, the last repetition's notices cleared first untimed (the work is in the database;
  this process's CPU and peak memory are printed beside); goal <= 3x.
- renewals.pdf_cpu: the worker's CPU seconds (the cluster and its 2 processes) per 1,000 notices
  printed in parts and merged; floor: the same 1,000 notices as one document in this process;
  goal: >= 4x faster than the 63 CPU-s per 1,000 measured before the parts.
- renewals.pdf_memory: the largest worker process's peak resident memory at the largest batch
  over that at the smallest; goal <= 1.25 (flat).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from statistics import median

HERE = Path(__file__).resolve().parent
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
os.environ.setdefault("DEBUG", "true")  # a development machine: no production secret needed
os.environ.setdefault("DOGTAG_VAR_DIR", tempfile.mkdtemp(prefix="dogtag-bench-renewals-"))

import django  # noqa: E402
from _fixtures import analyze, ensure_postgres_database, insert_series, text, vendor  # noqa: E402
from _harness import Bench, rss_mb_of, tree_cpu_seconds, tree_pids  # noqa: E402

ensure_postgres_database()
django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django_q.models import OrmQ  # noqa: E402

from dogtag.licensing import actions, renewals  # noqa: E402
from dogtag.licensing.models import License, RenewalChunk, RenewalNotice, RenewalRun  # noqa: E402
from dogtag.registry.models import Animal, Municipality, Ownership, Person  # noqa: E402

YEAR = 2027  # notices for 2027, to dogs licensed for 2026
ON = date(2026, 12, 1)
OLD_CPU_PER_1000 = 63.0  # 63-71 CPU-s per 1,000 notices before the parts


def populate(municipality, clerk, n: int, first: int = 0):
    """Dogs first .. first + n - 1, each with its owner (an email for two in three), its ownership
    and last year's license: one INSERT ... SELECT over a series a table (`_fixtures`), so a
    million load in a minute rather than the half hour the ORM's bulk_create took."""
    started = time.perf_counter()
    m = municipality.pk
    j = f"(i + {first})"  # the dog's number
    number = f"lpad(CAST({j} AS text), 7, '0')" if vendor() == "postgresql" else f"substr('0000000' || {j}, -7, 7)"
    born = (
        f"make_date(2018 + {j} % 7, 1 + {j} % 12, 1)"
        if vendor() == "postgresql"
        else f"printf('%04d-%02d-01', 2018 + {j} % 7, 1 + {j} % 12)"
    )
    email = text("'owner'", j, "'@example.org'")
    first_person = insert_series(
        Person,
        n,
        {
            "municipality_id": str(m),
            "name": text("'Owner '", number),
            "street": text(j, "' Elm St'"),
            "city": "'Benton'",
            "postal_code": "'53803'",
            "email": f"CASE WHEN {j} % 3 = 0 THEN '' ELSE {email} END",
        },
    )
    first_animal = insert_series(
        Animal,
        n,
        {
            "municipality_id": str(m),
            "name": text("'Dog '", number),
            "sex": "'female'",
            "altered": f"({j} % 2 = 0)",
            "breed": "'Mix'",
            "color": "'brown'",
            "birth_date": born,
        },
    )
    insert_series(
        Ownership,
        n,
        {
            "municipality_id": str(m),
            "animal_id": f"{first_animal} + i",
            "person_id": f"{first_person} + i",
            "started_on": "'2020-01-01'",
        },
    )
    insert_series(
        License,
        n,
        {
            "municipality_id": str(m),
            "license_year": str(YEAR - 1),
            "serial": f"100000 + {j}",
            "animal_id": f"{first_animal} + i",
            "holder_id": f"{first_person} + i",
            "issued_on": f"'{YEAR - 1}-02-01'",
            "expires_on": f"'{YEAR}-03-31'",
            "tax": "'5.00'",
            "late_fee": "'0.00'",
            "issued_by_id": str(clerk.pk),
            "owner_name": text("'Owner '", number),
            "owner_address": text(j, "' Elm St'"),
            "animal_name": text("'Dog '", number),
            "species": "'dog'",
            "county": f"'{municipality.county}'",
        },
    )
    if vendor() == "postgresql":
        analyze()
    print(f"   populated {n:,} licensed dogs in {time.perf_counter() - started:.1f} s", flush=True)


def forget_runs():
    """Between repetitions: no notice, part or queued task left (a bench database only). The
    ORM's delete() reads every notice back first (minutes at 1M); a DELETE leaves a million dead
    rows for the next run's NOT EXISTS to step over: PostgreSQL truncates, SQLite deletes."""
    models = (RenewalChunk, RenewalNotice, RenewalRun, OrmQ)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in models)
                cursor.execute(f"TRUNCATE {tables} CASCADE")  # and the (empty) portal applications naming a notice
        else:
            for model in models:
                model.objects.all()._raw_delete(connection.alias)


FLOOR_SQL = """
INSERT INTO licensing_renewalnotice
    (municipality_id, animal_id, license_year, owner_id, created_at, emailed, run_id, sequence)
SELECT a.municipality_id, a.id, %(year)s, o.person_id, %(now)s, %(false)s, NULL,
       ROW_NUMBER() OVER (ORDER BY a.name, a.id)
FROM registry_animal a
JOIN licensing_license l ON l.animal_id = a.id AND l.license_year = %(last)s AND l.voided_at IS NULL
JOIN registry_ownership o ON o.animal_id = a.id AND o.role = 'owner' AND o.started_on <= %(on)s
     AND (o.ended_on IS NULL OR o.ended_on >= %(on)s)
WHERE a.municipality_id = %(m)s AND a.status = 'active'
  AND NOT EXISTS (SELECT 1 FROM licensing_license t WHERE t.animal_id = a.id AND t.license_year = %(year)s
                  AND t.voided_at IS NULL)
"""


# Each side clears the last repetition's notices first, untimed: it returns the wall seconds of
# its own work alone (the harness keeps them as the side's figure) and, beside them, this
# process's CPU seconds (the rest is the database server's).
CPU: dict[str, list[float]] = {"dogtag": [], "floor": []}


def floor(municipality):
    def run():
        forget_runs()
        wall0, cpu0 = time.perf_counter(), time.process_time()
        now = connection.ops.adapt_datetimefield_value(django.utils.timezone.now())
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                FLOOR_SQL, {"year": YEAR, "last": YEAR - 1, "now": now, "false": False, "on": ON, "m": municipality.pk}
            )
        CPU["floor"].append(time.process_time() - cpu0)
        return time.perf_counter() - wall0

    return run


def dogtag(municipality):
    def run():
        forget_runs()
        wall0, cpu0 = time.perf_counter(), time.process_time()
        run = actions.start_renewal_run(acting_user=None, municipality=municipality, license_year=YEAR)
        CPU["dogtag"].append(time.process_time() - cpu0)
        wall = time.perf_counter() - wall0
        assert run.notices_created > 0
        return wall

    return run


def one_document(run, n):
    """The way the run printed before the parts: its first n notices in one document, in this process."""
    from dogtag.licensing import renewal_notice_pdf

    rows = renewals.chunk_rows(RenewalChunk(run=run, number=1, first_sequence=1, last_sequence=n))
    assert len(rows) == n, (len(rows), n)
    cpu0 = time.process_time()
    renewal_notice_pdf.draw(run.municipality, run.license_year, rows)
    return time.process_time() - cpu0


def worker_run(bench, municipality, n: int) -> dict:
    """Notices for n dogs, printed by a real `dogtag worker` (2 processes); CPU and memory sampled."""
    forget_runs()
    Animal.objects.filter(municipality=municipality, name__gte=f"Dog {n:07d}").update(status="died")
    Animal.objects.filter(municipality=municipality, name__lt=f"Dog {n:07d}").update(status="active")
    settings.DOGTAG_TASKS_INLINE = False
    with transaction.atomic():
        run = actions.start_renewal_run(acting_user=None, municipality=municipality, license_year=YEAR)
    assert run.notices_created == n, (run.notices_created, n)
    env = {**os.environ, "DOGTAG_WORKERS": "2", "DOGTAG_SCHEDULE_OUTBOX": "off"}
    log = open(Path(os.environ["DOGTAG_VAR_DIR"]) / f"worker-{n}.log", "wb")
    worker = subprocess.Popen(
        [str(Path(sys.executable).with_name("dogtag")), "worker"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    started = time.perf_counter()
    peak_process = peak_tree = 0.0
    cpu = 0.0
    try:
        while True:
            pids = tree_pids(worker.pid)
            sizes = [rss_mb_of(p) for p in pids]
            peak_process = max([peak_process, *sizes])
            peak_tree = max(peak_tree, sum(sizes))
            cpu = max(cpu, tree_cpu_seconds(worker.pid))
            if RenewalRun.objects.filter(pk=run.pk).exclude(finished_at=None).exists():
                break
            if worker.poll() is not None or time.perf_counter() - started > 3600:
                raise SystemExit(f"worker stopped or took too long; see {log.name}")
            time.sleep(0.2)
        wall = time.perf_counter() - started
        cpu = max(cpu, tree_cpu_seconds(worker.pid))
    finally:
        worker.terminate()
        worker.wait(timeout=60)
    run.refresh_from_db()
    bench.note(
        f"{n:,} notices: {run.chunks_total} parts of {run.chunk_size}; wall {wall:.1f} s; worker CPU "
        f"{cpu:.1f} s ({cpu / n * 1000:.1f} CPU-s per 1,000); peak RSS largest process {peak_process:.0f} MB, "
        f"whole cluster {peak_tree:.0f} MB"
    )
    return {"cpu_per_1000": cpu / n * 1000, "peak_process": peak_process, "peak_tree": peak_tree, "wall": wall}


def main():
    bench = Bench("renewals")
    call_command("migrate", verbosity=0)
    municipality, _ = Municipality.objects.get_or_create(
        slug="benton",
        defaults={"name": "Village of Benton", "kind": "village", "county": "Lafayette", "rule_pack": "wi-benton"},
    )
    clerk, _ = get_user_model().objects.get_or_create(username="bench-clerk")
    sizes = [int(s) for s in os.environ.get("BENCH_PDF_SIZES", "1000,5000").split(",")]
    n = max(bench.size, max(sizes))
    have = License.objects.filter(municipality=municipality, license_year=YEAR - 1).count()
    if have < n:
        populate(municipality, clerk, n - have, first=have)
    Animal.objects.filter(municipality=municipality).update(status="active")

    import django.utils.timezone as tz

    with_time = __import__("time_machine").travel(tz.datetime(2026, 12, 1, 12, tzinfo=tz.get_current_timezone()))
    with with_time:
        settings.DOGTAG_TASKS_INLINE = False
        runs = bench.interleave(
            {"dogtag": dogtag(municipality), "floor": floor(municipality)}, label=f"notices for {n:,} dogs"
        )
        ratio = runs.ratio("figure")
        bench.note(
            "without clearing the last repetition: dogtag wall median "
            f"{runs['dogtag'].figure.median:.2f} s, this process's CPU median {median(CPU['dogtag']):.2f} s; "
            f"floor {runs['floor'].figure.median:.2f} s, CPU {median(CPU['floor']):.2f} s"
        )
        bench.result(
            "renewals.notices",
            ratio=ratio,
            value=runs["dogtag"].figure.median,
            unit="s",
            goal="ratio<=3",
            met=ratio <= 3,
        )

        # the floor of printing: one document of 1,000 notices, in this process
        forget_runs()
        run = actions.start_renewal_run(acting_user=None, municipality=municipality, license_year=YEAR)
        one_cpu = one_document(run, 1000)
        bench.note(f"one document of 1,000 notices in this process: {one_cpu:.1f} CPU-s")

    measured = {size: worker_run(bench, municipality, size) for size in sizes}
    small, large = measured[min(sizes)], measured[max(sizes)]
    per_1000 = large["cpu_per_1000"]
    bench.result(
        "renewals.pdf_cpu",
        ratio=per_1000 / one_cpu,
        value=per_1000,
        unit="CPU-s/1000",
        goal=f"<={OLD_CPU_PER_1000 / 4:.1f} (4x faster than {OLD_CPU_PER_1000:.0f})",
        met=per_1000 <= OLD_CPU_PER_1000 / 4,
    )
    growth = large["peak_process"] / small["peak_process"]
    bench.result(
        "renewals.pdf_memory",
        ratio=growth,
        value=large["peak_process"],
        unit="MB",
        goal=f"ratio<=1.25 ({max(sizes):,} vs {min(sizes):,} notices)",
        met=growth <= 1.25,
    )


if __name__ == "__main__":
    main()
