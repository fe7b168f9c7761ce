"""The county reports read from a real streaming replica.

Starts a primary PostgreSQL cluster and, by pg_basebackup, a streaming replica of it, each under
/tmp on a port of its own, as the postgres user with pg_ctl (the machine's own server is left
alone: its pg_hba.conf allows no replication). Loads BENCH_SCALE licensed dogs into the primary,
waits for the replica to replay them, then runs the county reports and dashboard as Benton's
clerk, routed to the replica (DATABASE_REPLICA_URL, lib/replica.py) and, in turn, to the
primary: the floor, the same pages on the primary alone. Both clusters are stopped and removed
at the end.

    .venv/bin/python bench/replica.py          # BENCH_SCALE=10k|100k|1m (default 100k)

Prints the replication lag (a row written on the primary until it is read on the replica),
which connection each page read from, and RESULT replica.reports (goal: the replica serves
the reports at no more than 1.5x the primary's time; it takes their load off the primary).
"""

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from _harness import Bench

bench = Bench("replica", database="postgresql: a primary and its streaming replica of its own")
ROOT = tempfile.mkdtemp(prefix="dogtag-replica-bench-", dir="/tmp")
BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1] if glob.glob("/usr/lib/postgresql/*/bin") else ""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def as_postgres(*args, **kwargs):
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    return subprocess.run(prefix + list(args), check=True, capture_output=True, text=True, **kwargs)


def pg_ctl(data, *args):
    return as_postgres(f"{BIN}/pg_ctl", "-D", data, "-w", "-t", "120", *args)


def start_clusters():
    os.chmod(ROOT, 0o777)
    primary, replica = os.path.join(ROOT, "primary"), os.path.join(ROOT, "replica")
    ports = free_port(), free_port()
    as_postgres(f"{BIN}/initdb", "-D", primary, "-U", "postgres", "--auth=trust", "-E", "UTF8")
    options = f"-p {ports[0]} -k {ROOT} -c listen_addresses=127.0.0.1 -c wal_level=replica -c max_wal_senders=4"
    pg_ctl(primary, "-l", os.path.join(ROOT, "primary.log"), "-o", options, "start")
    started = time.perf_counter()
    as_postgres(
        f"{BIN}/pg_basebackup",
        "-h",
        "127.0.0.1",
        "-p",
        str(ports[0]),
        "-U",
        "postgres",
        "-D",
        replica,
        "-R",
        "-X",
        "stream",
        "-c",
        "fast",
    )
    pg_ctl(
        replica,
        "-l",
        os.path.join(ROOT, "replica.log"),
        "-o",
        f"-p {ports[1]} -k {ROOT} -c listen_addresses=127.0.0.1 -c hot_standby=on",
        "start",
    )
    bench.note(
        f"primary on :{ports[0]}, streaming replica on :{ports[1]} (pg_basebackup and start: "
        f"{time.perf_counter() - started:.1f} s), under {ROOT}"
    )
    return (primary, replica), ports


def stop_clusters(datas):
    for data in reversed(datas):
        try:
            pg_ctl(data, "-m", "fast", "stop")
        except subprocess.CalledProcessError as e:
            print(e.stderr, file=sys.stderr)
    shutil.rmtree(ROOT, ignore_errors=True)


def main():
    if not BIN or not shutil.which("runuser") and os.geteuid() == 0:
        print("replica bench: no PostgreSQL server binaries here; nothing measured")
        return
    datas, ports = start_clusters()
    try:
        run(ports)
    finally:
        stop_clusters(datas)


def run(ports):
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{ports[0]}/dogtag"
    os.environ["DATABASE_REPLICA_URL"] = f"postgres://postgres@127.0.0.1:{ports[1]}/dogtag"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
    os.environ.setdefault("DOGTAG_VAR_DIR", tempfile.mkdtemp(prefix="dogtag-bench-"))
    from _fixtures import bulk_animals, bulk_licenses, ensure_postgres_database, in_process_pages

    ensure_postgres_database()
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from dogtag.registry.models import Municipality

    call_command("migrate", verbosity=0)
    call_command("demo", stdout=open(os.devnull, "w"))
    benton = Municipality.objects.get(slug="benton")
    clerk = get_user_model().objects.get(username="benton-clerk")
    first = bulk_animals(benton, bench.size, vaccinated="i % 5 <> 0")
    bulk_licenses(benton, first, bench.size, year=2026, issued_by_id=clerk.pk)

    # Replication lag: a row written on the primary, polled for on the replica.
    with connections["default"].cursor() as c:
        c.execute("CREATE TABLE IF NOT EXISTS bench_lag (id serial PRIMARY KEY, at timestamptz DEFAULT now())")
        c.execute("INSERT INTO bench_lag DEFAULT VALUES RETURNING id")
        mark = c.fetchone()[0]
    written = time.perf_counter()
    deadline = written + 120
    with connections["replica"].cursor() as c:
        c.execute("SELECT pg_is_in_recovery()")
        assert c.fetchone()[0], "the replica is not in recovery: not a replica"
        while True:
            try:
                c.execute("SELECT 1 FROM bench_lag WHERE id = %s", [mark])
                if c.fetchone():
                    break
            except Exception:  # the table itself has not arrived yet
                connections["replica"].close()
                c = connections["replica"].cursor()
            if time.perf_counter() > deadline:
                sys.exit("the replica did not catch up within 120 s")
            time.sleep(0.01)
    bench.note(f"replication lag after the load: {(time.perf_counter() - written) * 1000:.0f} ms")

    in_process_pages()
    client = Client()
    client.force_login(clerk)
    pages = [
        "/m/benton/dashboard/",
        "/dashboard/",
        "/m/benton/reports/licenses/",
        "/m/benton/reports/payments/",
        "/m/benton/reports/county-clerk/",
        "/m/benton/reports/tag-stock/",
        "/m/benton/reports/rabies-expiring/",
    ]
    served = {}

    def reports(alias):
        def go():
            settings.DOGTAG_READ_REPLICA = alias
            with (
                CaptureQueriesContext(connections["replica"]) as on_replica,
                CaptureQueriesContext(connections["default"]) as on_primary,
            ):
                for page in pages:
                    r = client.get(page)
                    assert r.status_code == 200, (page, r.status_code, r.content[:300])
            served[alias] = (len(on_replica), len(on_primary))

        return go

    runs = bench.interleave(
        {"replica": reports("replica"), "primary": reports(None)},
        repetitions=3,
        label=f"{len(pages)} county report pages, on the replica vs on the primary",
    )
    replica_q, primary_q = served["replica"]
    bench.note(
        f"routed to the replica: {replica_q} queries on the replica, {primary_q} on the primary "
        f"(the session and login); without the replica: {served[None][1]} on the primary"
    )
    ratio = runs.ratio("wall")
    bench.result(
        "replica.reports",
        ratio=ratio,
        value=runs["replica"].wall.median * 1000 / len(pages),
        unit="ms/page",
        goal="ratio<=1.5",
        met=ratio <= 1.5 and replica_q > primary_q,
    )
    for alias in connections:
        connections[alias].close()


if __name__ == "__main__":
    main()
