"""Counter speed: with 100,000 animals in one municipality, open an animal's license page
(what is owed, with citations) and issue its license — each one page load, timed in-process
through Django's full request stack. Prints median and 95th percentile in milliseconds.

    .venv/bin/python bench/counter.py                 # SQLite in a temporary folder
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dogtag_bench .venv/bin/python bench/counter.py
"""

import os
import statistics
import tempfile
import time
from datetime import date

ANIMALS = int(os.environ.get("BENCH_ANIMALS", 100_000))
SAMPLES = int(os.environ.get("BENCH_SAMPLES", 200))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
os.environ.setdefault("DOGTAG_VAR_DIR", tempfile.mkdtemp(prefix="dogtag-bench-"))

import django  # noqa: E402
from _fixtures import bulk_animals, ensure_postgres_database, in_process_pages  # noqa: E402

ensure_postgres_database()
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from dogtag.licensing import actions  # noqa: E402
from dogtag.registry.models import Animal, Municipality  # noqa: E402


def populate():
    call_command("migrate", verbosity=0)
    call_command("demo", stdout=open(os.devnull, "w"))
    from django.contrib.auth import get_user_model

    benton = Municipality.objects.get(slug="benton")
    clerk = get_user_model().objects.get(username="benton-clerk")
    if Animal.objects.filter(municipality=benton).count() >= ANIMALS:
        return benton, clerk
    bulk_animals(benton, ANIMALS)
    for key, amount in {"license_tax.altered": "5.00", "license_tax.unaltered": "10.00", "late_fee": "5.00"}.items():
        actions.set_fee(
            acting_user=clerk,
            municipality=benton,
            key=key,
            amount=amount,
            effective_on=date(2020, 1, 1),
            authority="bench",
        )
    year = date.today().year
    actions.receive_tag_lot(
        acting_user=clerk, municipality=benton, license_year=year, first_serial=1, last_serial=50_000
    )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # the tag lot too
    return benton, clerk


def timed(fn, n):
    times = []
    for i in range(n):
        started = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), sorted(times)[int(len(times) * 0.95) - 1]


def main():
    benton, clerk = populate()
    in_process_pages()
    client = Client()
    client.force_login(clerk)
    ids = list(
        Animal.objects.filter(municipality=benton, licenses__isnull=True)
        .order_by("?")
        .values_list("pk", flat=True)[: SAMPLES * 2]
    )

    def open_page(i):
        r = client.get(f"/animals/{ids[i]}/license/")
        assert r.status_code == 200 and b"Issue the" in r.content, r.content[-500:]

    def issue(i):
        r = client.post(f"/animals/{ids[SAMPLES + i]}/license/", {"method": "cash", "amount": "15.00"})
        assert r.status_code == 302, r.content[-800:]

    open_page(0)  # warm the rule packs and templates, as a running server would be
    print(f"engine: {connection.vendor}, {Animal.objects.filter(municipality=benton).count():,} animals in Benton")
    median, p95 = timed(open_page, SAMPLES)
    print(f"open an animal and see what is owed: median {median:.1f} ms, p95 {p95:.1f} ms ({SAMPLES} pages)")
    median, p95 = timed(issue, SAMPLES)
    print(f"issue the license (payment, tag, audit): median {median:.1f} ms, p95 {p95:.1f} ms ({SAMPLES} licenses)")


if __name__ == "__main__":
    main()
