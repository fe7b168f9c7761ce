"""License issue with 8 concurrent clerks, over HTTP: each clerk's client posts
`POST /api/v1/animals/<pk>/licenses` (payment in cash) to `dogtag serve` (gunicorn, 2 workers x 4
threads) on PostgreSQL, for animals no one has licensed yet, in a municipality of BENCH_SCALE
animals (default 100k). Its floor: the same issue as raw SQL from 8 psycopg clients, one
transaction each (take the next tag in stock with FOR UPDATE SKIP LOCKED, the payment, the
license from the animal and its owner, the tag's license, the audit event), with the amounts as
constants.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dogtag_bench_issue .venv/bin/python bench/issue.py

Goals: >= 150 licenses/s, <= 8x the raw floor, and no tag issued twice (checked after the runs).

BENCH_ISSUED=N (default 0) first loads N licenses already issued in the year, with their tags,
the way a bulk load leaves them: in one statement each, the tags issued by one UPDATE (their old
index entries left in the stock's index), no ANALYZE and autovacuum off on the two tables for the
run, so the planner's statistics are those of the empty year. Run it on a fresh database for each
N (BENCH_SCALE >= N + 2,000 animals) and compare the rates: goal within 20% of each other.
"""

import json
import os
import signal
import sys
import tempfile
import threading
import time
from datetime import date
from http.client import HTTPConnection

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/dogtag_bench_issue"
os.environ["DATABASE_URL"] = url = (
    os.environ["DATABASE_URL"] if os.environ.get("DATABASE_URL", "").startswith("postgres") else DEFAULT_URL
)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
os.environ.setdefault("DOGTAG_VAR_DIR", tempfile.mkdtemp(prefix="dogtag-bench-"))

import django  # noqa: E402
from _fixtures import bulk_animals, ensure_postgres_database  # noqa: E402
from _harness import Bench, free_port, start_server, tree_cpu_seconds  # noqa: E402

bench = Bench("issue")
ensure_postgres_database(url)
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from dogtag.accounts.actions import issue_api_token  # noqa: E402
from dogtag.licensing import actions  # noqa: E402
from dogtag.licensing.models import License, Tag  # noqa: E402
from dogtag.registry.models import Animal, Municipality  # noqa: E402

CLERKS = 8
PER_CLERK = int(os.environ.get("BENCH_ISSUES", 25))  # licenses per clerk per run
YEAR = date.today().year

FLOOR_SQL = [
    """UPDATE licensing_tag SET status = 'issued'
        WHERE id = (SELECT id FROM licensing_tag WHERE municipality_id = %(m)s AND license_year = %(y)s
                       AND status = 'in-stock' ORDER BY serial LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, serial""",
    """INSERT INTO licensing_payment (municipality_id, void_reason, payer_id, amount, method, check_number,
                                      card_reference, received_by_id, received_at, convenience_fee)
       SELECT %(m)s, '', o.person_id, 15.00, 'cash', '', '', %(clerk)s, now(), 0
         FROM registry_ownership o WHERE o.animal_id = %(animal)s AND o.ended_on IS NULL
    RETURNING id, payer_id""",
    """INSERT INTO licensing_license (municipality_id, void_reason, kind, license_year, serial, animal_id, holder_id,
           issued_on, expires_on, tax, late_fee, late_fee_trigger, free_license, payment_id, issued_by_id,
           owner_name, owner_address, animal_name, species, sex, altered, breed, color, county, citations, revocation)
       SELECT a.municipality_id, '', 'individual', %(y)s, %(serial)s, a.id, p.id, current_date, %(expires)s,
              10.00, 5.00, 'renewal', false, %(payment)s, %(clerk)s, p.name, p.street, a.name, a.species, a.sex,
              a.altered, a.breed, a.color, 'Grant', '[]', ''
         FROM registry_animal a, registry_person p WHERE a.id = %(animal)s AND p.id = %(payer)s
    RETURNING id""",
    "UPDATE licensing_tag SET license_id = %(license)s WHERE id = %(tag)s",
    """INSERT INTO audit_auditevent (municipality_id, actor_id, action, object_type, object_id, object_repr, at)
       VALUES (%(m)s, %(clerk)s, 'license.issue', 'licensing.license', %(license)s, 'license', now())""",
]


ISSUED = int(os.environ.get("BENCH_ISSUED", 0))


def preload_issued(benton, clerk, n):
    """`n` licenses of the year for the animals with the highest ids, each with its tag (serials 1
    to n, received as one lot and issued by one UPDATE), statistics and dead index entries left."""
    if n == 0 or License.objects.filter(municipality=benton, license_year=YEAR).exists():
        return
    m, y = benton.pk, YEAR
    with connection.cursor() as c:
        for table in ("licensing_license", "licensing_tag"):
            c.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
        c.execute(
            "INSERT INTO licensing_taglot (municipality_id, license_year, first_serial, last_serial, received_on, "
            "received_by_id) VALUES (%s, %s, 1, %s, current_date, %s) RETURNING id",
            [m, y, n, clerk.pk],
        )
        lot = c.fetchone()[0]
        c.execute(
            "INSERT INTO licensing_tag (municipality_id, lot_id, license_year, serial, status) "
            "SELECT %s, %s, %s, s, 'in-stock' FROM generate_series(1, %s) s",
            [m, lot, y, n],
        )
        c.execute(
            """INSERT INTO licensing_license (municipality_id, void_reason, kind, license_year, serial, animal_id,
                   holder_id, issued_on, expires_on, tax, late_fee, late_fee_trigger, free_license, issued_by_id,
                   owner_name, owner_address, animal_name, species, sex, altered, breed, color, county, citations,
                   revocation)
               SELECT a.municipality_id, '', 'individual', %(y)s, row_number() OVER (ORDER BY a.id), a.id, p.id,
                      current_date, make_date(%(y)s, 12, 31), 10.00, 0, '', false, %(clerk)s, p.name, p.street,
                      a.name, a.species, a.sex, a.altered, a.breed, a.color, 'Grant', '[]', ''
                 FROM (SELECT * FROM registry_animal WHERE municipality_id = %(m)s ORDER BY id DESC LIMIT %(n)s) a
                 JOIN registry_ownership o ON o.animal_id = a.id AND o.ended_on IS NULL
                 JOIN registry_person p ON p.id = o.person_id""",
            {"m": m, "y": y, "n": n, "clerk": clerk.pk},
        )
        c.execute("SET enable_nestloop = off")  # the planner knows nothing of the rows just loaded
        c.execute(
            "UPDATE licensing_tag t SET status = 'issued', license_id = l.id FROM licensing_license l "
            "WHERE l.municipality_id = %s AND l.license_year = %s AND t.municipality_id = l.municipality_id "
            "AND t.license_year = l.license_year AND t.serial = l.serial",
            [m, y],
        )
        c.execute("RESET enable_nestloop")


def populate(n):
    call_command("migrate", verbosity=0)
    if not Municipality.objects.filter(slug="benton").exists():
        call_command("demo", stdout=open(os.devnull, "w"))
    benton = Municipality.objects.get(slug="benton")
    clerk = get_user_model().objects.get(username="benton-clerk")
    if Animal.objects.filter(municipality=benton).count() < n:
        bulk_animals(benton, n)
        fees = {"license_tax.altered": "5.00", "license_tax.unaltered": "10.00", "late_fee": "5.00"}
        for key, amount in fees.items():
            actions.set_fee(
                acting_user=clerk,
                municipality=benton,
                key=key,
                amount=amount,
                effective_on=date(2020, 1, 1),
                authority="bench",
            )
    preload_issued(benton, clerk, ISSUED)
    in_stock = Tag.objects.filter(municipality=benton, license_year=YEAR, status=Tag.Status.IN_STOCK).count()
    if in_stock < 20_000:
        last = Tag.objects.filter(municipality=benton, license_year=YEAR).order_by("-serial").first()
        first = (last.serial if last else 0) + 1
        actions.receive_tag_lot(
            acting_user=clerk, municipality=benton, license_year=YEAR, first_serial=first, last_serial=first + 49_999
        )
    return benton, clerk


def main():
    benton, clerk = populate(bench.size)
    token = issue_api_token(acting_user=clerk, user=clerk, name="bench")[1]
    licensed = License.objects.filter(license_year=YEAR).values("animal_id")
    animals = list(
        Animal.objects.filter(municipality=benton)
        .exclude(pk__in=licensed)
        .order_by("pk")
        .values_list("pk", flat=True)[: CLERKS * PER_CLERK * 10]
    )
    if len(animals) < CLERKS * PER_CLERK * 8:
        sys.exit("not enough unlicensed animals left: use a fresh database (drop dogtag_bench_issue)")
    expires = f"{YEAR}-12-31"
    connection.close()
    port = free_port()
    server = start_server(port)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    payment = json.dumps({"payment": {"method": "cash", "amount": "15.00"}})
    import psycopg

    server_cpu = []

    def clerks(issue_one):
        batch = [animals.pop() for _ in range(CLERKS * PER_CLERK)]
        errors = []

        def clerk_at_work(k):
            session = {}
            for pk in batch[k::CLERKS]:
                try:
                    issue_one(session, pk)
                except Exception as e:  # noqa: BLE001 - counted and shown
                    errors.append(repr(e)[:300])

        threads = [threading.Thread(target=clerk_at_work, args=(k,)) for k in range(CLERKS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            sys.exit(f"{len(errors)} issues failed, the first: {errors[0]}")

    def over_http(session, pk):
        conn = session.get("conn") or session.setdefault("conn", HTTPConnection("127.0.0.1", port, timeout=60))
        conn.request("POST", f"/api/v1/animals/{pk}/licenses", body=payment, headers=headers)
        r = conn.getresponse()
        body = r.read()
        assert r.status == 201, (r.status, body[:300])

    def raw_sql(session, pk):
        conn = session.get("conn") or session.setdefault("conn", psycopg.connect(url))
        with conn.transaction():
            p = {"m": benton.pk, "y": YEAR, "clerk": clerk.pk, "animal": pk, "expires": expires}
            p["tag"], p["serial"] = conn.execute(FLOOR_SQL[0], p).fetchone()
            p["payment"], p["payer"] = conn.execute(FLOOR_SQL[1], p).fetchone()
            p["license"] = conn.execute(FLOOR_SQL[2], p).fetchone()[0]
            conn.execute(FLOOR_SQL[3], p)
            conn.execute(FLOOR_SQL[4], p)

    def dogtag():
        cpu0 = tree_cpu_seconds(server.pid)
        clerks(over_http)
        server_cpu.append((tree_cpu_seconds(server.pid) - cpu0) / (CLERKS * PER_CLERK) * 1000)

    def floor():
        clerks(raw_sql)

    try:
        bench.note(
            f"{Animal.objects.filter(municipality=benton).count():,} animals in Benton; "
            f"{CLERKS} clerks x {PER_CLERK} licenses a run; {ISSUED:,} licenses issued in the year before the runs"
        )
        connection.close()
        runs = bench.interleave(
            {"dogtag": dogtag, "floor": floor},
            repetitions=3,
            warmup=1,
            label=f"license issue, {CLERKS} concurrent clerks, API over HTTP vs raw SQL",
        )
        done = CLERKS * PER_CLERK
        rate = done / runs["dogtag"].wall.median
        floor_rate = done / runs["floor"].wall.median
        with connection.cursor() as c:
            c.execute(
                "SELECT count(*) FROM (SELECT 1 FROM licensing_license WHERE municipality_id = %s "
                "GROUP BY license_year, serial HAVING count(*) > 1) d",
                [benton.pk],
            )
            duplicate_serials = c.fetchone()[0]
            c.execute(
                "SELECT count(*) FROM (SELECT 1 FROM licensing_tag WHERE license_id IS NOT NULL "
                "GROUP BY license_id HAVING count(*) > 1) d"
            )
            tags_twice = c.fetchone()[0]
        bench.note(
            f"dogtag: {rate:,.1f} licenses/s, server CPU {sorted(server_cpu)[len(server_cpu) // 2]:.1f} ms "
            f"a license; floor: {floor_rate:,.1f} licenses/s; duplicate serials {duplicate_serials}, "
            f"licenses with two tags {tags_twice}"
        )
        ratio = runs.ratio("wall")
        bench.result(
            "issue.throughput",
            ratio=ratio,
            value=rate,
            unit="licenses/s",
            goal="value>=150,ratio<=8",
            met=rate >= 150 and ratio <= 8,
        )
        bench.result(
            "issue.duplicate_tags",
            ratio=0,
            value=duplicate_serials + tags_twice,
            unit="",
            goal="value=0",
            met=duplicate_serials + tags_twice == 0,
        )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        time.sleep(0)


if __name__ == "__main__":
    main()
