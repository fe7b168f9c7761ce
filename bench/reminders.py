"""The renewal reminder sweep at scale: the worker's daily sweep (licensing/actions/reminders.py,
one INSERT ... SELECT over every municipality's lead times) against its SQL floor, and the
delivery of the reminders it wrote (emails rendered, letters drawn) per 1,000 beside.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dogtag_bench_reminders .venv/bin/python bench/reminders.py
    BENCH_SCALE=10k|100k|1m (default 100k)
    BENCH_DELIVER=1000 (default) reminders delivered for the delivery figure (0: none)

Measures:
- reminders.sweep: the sweep on December 1, 2026 for every dog whose 2026 license ends on
  December 31 (the 30-day reminder of all of them); floor: one INSERT ... SELECT of the same rows
  (the license, its active dog, the current owner by a join, email or paper by the owner's address)
  with none of Dogtag's further conditions (the late window, the opt-outs, later or voided
  licenses, the license's kind, the unique constraint's ON CONFLICT). Wall seconds of each side's
  own work, the last repetition's reminders cleared first, untimed; goal <= 3x.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
os.environ.setdefault("DEBUG", "true")  # a development machine: no production secret needed
os.environ.setdefault("DOGTAG_VAR_DIR", tempfile.mkdtemp(prefix="dogtag-bench-reminders-"))

import django  # noqa: E402
from _fixtures import analyze, ensure_postgres_database, insert_series, text, vendor  # noqa: E402
from _harness import Bench  # noqa: E402

ensure_postgres_database()
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from dogtag.licensing import actions  # noqa: E402
from dogtag.licensing.models import License, ReminderLetters, RenewalReminder  # noqa: E402
from dogtag.outbox.models import Message  # noqa: E402
from dogtag.registry.models import Animal, Municipality, Ownership, Person  # noqa: E402

YEAR = 2026
ENDS = date(YEAR, 12, 31)
ON = date(YEAR, 12, 1)  # 30 days before the license year ends


def populate(municipality, clerk, n: int, first: int = 0):
    """Dogs first .. first + n - 1, each with its owner (an email for two in three), its ownership
    and this year's license ending December 31: INSERT ... SELECT over a series (`_fixtures`)."""
    started = time.perf_counter()
    m = municipality.pk
    j = f"(i + {first})"
    number = f"lpad(CAST({j} AS text), 7, '0')" if vendor() == "postgresql" else f"substr('0000000' || {j}, -7, 7)"
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
            "birth_date": "'2020-01-01'",
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
            "license_year": str(YEAR),
            "serial": f"100000 + {j}",
            "animal_id": f"{first_animal} + i",
            "holder_id": f"{first_person} + i",
            "issued_on": f"'{YEAR}-02-01'",
            "expires_on": f"'{ENDS.isoformat()}'",
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


def forget_reminders():
    """Between repetitions: no reminder, letter or message left (a bench database only)."""
    models = (RenewalReminder, ReminderLetters, Message)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in models)
                cursor.execute(f"TRUNCATE {tables} CASCADE")
        else:
            for model in models:
                model.objects.all()._raw_delete(connection.alias)


FLOOR_SQL = """
INSERT INTO licensing_renewalreminder
    (municipality_id, animal_id, license_id, license_year, lead_days, due_on, person_id, channel,
     created_at, withdrawn_because)
SELECT l.municipality_id, l.animal_id, l.id, l.license_year, -30, %(due)s, o.person_id,
       CASE WHEN p.email <> '' THEN 'email' ELSE 'paper' END, %(now)s, ''
FROM licensing_license l
JOIN registry_animal a ON a.id = l.animal_id AND a.status = 'active'
JOIN registry_ownership o ON o.animal_id = l.animal_id AND o.role = 'owner' AND o.started_on <= %(on)s
     AND (o.ended_on IS NULL OR o.ended_on >= %(on)s)
JOIN registry_person p ON p.id = o.person_id
WHERE l.expires_on = %(ends)s
"""


def floor():
    forget_reminders()
    wall0 = time.perf_counter()
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(FLOOR_SQL, {"due": ON, "now": now, "on": ON, "ends": ENDS})
        assert cursor.rowcount > 0
    return time.perf_counter() - wall0


def dogtag():
    forget_reminders()
    wall0 = time.perf_counter()
    written = actions.sweep_renewal_reminders(ON)
    wall = time.perf_counter() - wall0
    assert written > 0
    return wall


def main():
    bench = Bench("reminders")
    call_command("migrate", verbosity=0)
    municipality, _ = Municipality.objects.get_or_create(
        slug="benton",
        defaults={"name": "Village of Benton", "kind": "village", "county": "Lafayette", "rule_pack": "wi-benton"},
    )
    clerk, _ = get_user_model().objects.get_or_create(username="bench-clerk")
    n = bench.size
    have = License.objects.filter(municipality=municipality, license_year=YEAR).count()
    if have < n:
        populate(municipality, clerk, n - have, first=have)

    import time_machine

    with time_machine.travel(timezone.datetime(YEAR, 12, 1, 12, tzinfo=timezone.get_current_timezone())):
        runs = bench.interleave({"dogtag": dogtag, "floor": floor}, label=f"30-day reminders for {n:,} licenses")
        ratio = runs.ratio("figure")
        written = RenewalReminder.objects.count()
        bench.note(f"the floor's last repetition wrote {written:,} reminders")
        bench.result(
            "reminders.sweep",
            ratio=ratio,
            value=runs["dogtag"].figure.median,
            unit="s",
            goal="3",
            met=ratio <= 3,
        )

        deliver = int(os.environ.get("BENCH_DELIVER", "1000"))
        if deliver:
            forget_reminders()
            actions.sweep_renewal_reminders(ON)
            keep = list(RenewalReminder.objects.order_by("pk").values_list("pk", flat=True)[:deliver])
            RenewalReminder.objects.exclude(pk__in=keep).update(withdrawn_at=timezone.now())  # a bench database only
            wall0, cpu0 = time.perf_counter(), time.process_time()
            done = actions.deliver_renewal_reminders(ON)
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
            bench.note(
                f"delivery of {deliver:,} reminders ({done['emailed']:,} emailed, {done['printed']:,} printed): "
                f"wall {wall:.1f} s, CPU {cpu:.1f} s (the worker's, in batches after the sweep)"
            )


if __name__ == "__main__":
    main()
