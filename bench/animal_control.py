"""Animal control at scale: with 100,000 dogs in Webster (one in five without a current rabies
certificate, three in five licensed this year) under a district rabies quarantine, and an
officer with 2,000 open cases across the five municipalities, time the officer's pages
in-process through Django's full request stack:
the exemption lookup by tag, the list of animals not exempt (a page by name, the first or one
after a random animal of the list, as an officer walks it; and the CSV of 10,000), and
"my cases". Each page is timed against its floor, the page's own SQL replayed on the raw cursor,
interleaved (A B A B ...); each ends with a RESULT line of its p99 in ms (the CSV: its median
wall seconds). The goals: a page p99 <= 50 ms at any
scale (the counter's goal), the CSV of 10,000 rows <= 2 s.

    .venv/bin/python bench/animal_control.py         # BENCH_SCALE=10k|100k|1m (default 100k)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dogtag_bench_ac .venv/bin/python bench/animal_control.py
"""

import os
import random
import tempfile
from datetime import date, timedelta

from _harness import Bench, latencies_ms, percentile, replay, sql_of

bench = Bench("animal_control")
ANIMALS = bench.size
CASES = int(os.environ.get("BENCH_CASES", 2_000))
# Pages a run: at least 100, so that the p99 (nearest rank) is not simply the slowest page of the run.
SAMPLES = int(os.environ.get("BENCH_SAMPLES", 200))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
os.environ.setdefault("DOGTAG_VAR_DIR", tempfile.mkdtemp(prefix="dogtag-bench-"))

import django  # noqa: E402
from _fixtures import bulk_animals, bulk_licenses, ensure_postgres_database, in_process_pages  # noqa: E402

ensure_postgres_database()
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from dogtag.enforcement import actions, district_views  # noqa: E402
from dogtag.enforcement import district as enforcement_district  # noqa: E402
from dogtag.enforcement.models import Case, Deadline, DistrictQuarantine  # noqa: E402
from dogtag.lib import dates  # noqa: E402
from dogtag.registry.models import Animal, Municipality, RabiesVaccination  # noqa: E402


def populate():
    call_command("migrate", verbosity=0)
    call_command("demo", stdout=open(os.devnull, "w"))
    officer = get_user_model().objects.get(username="officer")
    webster = Municipality.objects.get(slug="webster")
    district = DistrictQuarantine.objects.filter(municipality=webster).first()
    if district is not None:
        return webster, officer, district
    first_animal = bulk_animals(webster, ANIMALS, vaccinated="i % 5 <> 0", city="Webster", postal_code="54893")
    today = date.today()
    # Three in five licensed this year (by SQL): the list's "license in force" is asked of each row.
    bulk_licenses(webster, first_animal, ANIMALS * 3 // 5, year=today.year, issued_by_id=officer.pk)
    district = actions.declare_district_quarantine(
        acting_user=officer,
        municipality=webster,
        declared_on=today,
        ends_on=today + timedelta(days=30),
        area="The Village of Webster",
        ordered_by="Burnett County health department",
    )
    places = list(Municipality.objects.all())
    cases = Case.objects.bulk_create(
        Case(
            municipality=places[i % len(places)],
            kind=Case.Kind.COMPLAINT,
            title=f"At large, complaint {i}",
            animal_id=first_animal + i if places[i % len(places)] == webster else None,
            officer=officer,
            opened_on=today - timedelta(days=i % 60),
        )
        for i in range(CASES)
    )
    Deadline.objects.bulk_create(
        Deadline(
            municipality_id=c.municipality_id,
            case=c,
            key=f"step.{k}",
            label="Written notice to the owner",
            due_on=today + timedelta(days=(i * 7 + k) % 90 - 30),
            citations=[{"section": "§ 98-7", "quote": "", "jurisdiction": "wi-webster"}],
        )
        for i, c in enumerate(cases)
        for k in range(3)
    )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return webster, officer, district


def main():
    webster, officer, district = populate()
    in_process_pages()
    client = Client()
    client.force_login(officer)
    on_record = RabiesVaccination.objects.filter(municipality=webster).values_list("rabies_tag_number", flat=True)
    tags = random.sample(list(on_record), SAMPLES)

    def lookup(i):
        r = client.get(f"/districts/{district.pk}/lookup/", {"q": tags[i]})
        assert r.status_code == 200 and b"Exempt" in r.content, r.content[-500:]

    # As an officer walks the list: the first page, then pages starting after an animal of the
    # list chosen at random (read here, before timing; never one of the last page, so each page
    # is full).
    listed, _ = enforcement_district.not_exempt(webster, dates.today())
    keys = list(listed.which(few=False).values_list("pk", "name"))[: -district_views.PAGE]
    starts = [None] + [random.choice(keys) for _ in range(SAMPLES - 1)]

    def not_exempt(i):
        after = {"after": f"{starts[i][0]}:{starts[i][1]}"} if starts[i] else {}
        r = client.get(f"/districts/{district.pk}/not-exempt/", after)
        assert r.status_code == 200 and r.content.count(b"no current rabies certificate") >= 100, r.content[-500:]

    def csv(i):
        r = client.get(f"/districts/{district.pk}/not-exempt/", {"format": "csv"})
        body = b"".join(r.streaming_content) if r.streaming else r.content  # exports are streamed
        assert r.status_code == 200 and body.count(b"\n") >= min(10_000, ANIMALS // 5), body[:300]

    def my_cases(i):
        r = client.get("/my-cases/")
        assert r.status_code == 200 and b"complaint" in r.content.lower(), r.content[-500:]

    lookup(0)
    bench.note(
        f"{Animal.objects.filter(municipality=webster).count():,} animals in Webster, "
        f"{Case.objects.filter(closed_on=None).count():,} open cases"
    )
    for name, fn, n in (
        ("animal_control.exemption_lookup", lookup, SAMPLES),
        ("animal_control.not_exempt_page", not_exempt, SAMPLES),
        ("animal_control.not_exempt_csv", csv, 5),  # its figure is the median
        ("animal_control.my_cases", my_cases, max(SAMPLES // 2, 5)),
    ):
        # The floor replays the page's reads; a write on the first view (the officer's calendar
        # key, made when "my cases" is first opened) would fail as a duplicate when replayed.
        statements = [q for q in sql_of(lambda fn=fn: fn(0)) if q.lstrip().upper().startswith(("SELECT", "WITH"))]

        def page(fn=fn, n=n):
            return percentile(latencies_ms(fn, n), 99)

        def floor(statements=statements, n=n):
            return percentile(latencies_ms(lambda i: replay(statements), n), 99)

        runs = bench.interleave(
            {"dogtag": page, "floor": floor},
            repetitions=3,
            label=f"{name}: {n} pages a run, {len(statements)} statements (figure: p99 ms)",
        )
        if name.endswith("_csv"):
            seconds = runs["dogtag"].wall.median / n
            bench.result(name, ratio=runs.ratio("wall"), value=seconds, unit="s", goal="value<=2", met=seconds <= 2)
        else:
            p99 = runs["dogtag"].figure.median
            bench.result(name, ratio=runs.ratio("figure"), value=p99, unit="ms", goal="value<=50", met=p99 <= 50)


if __name__ == "__main__":
    main()
