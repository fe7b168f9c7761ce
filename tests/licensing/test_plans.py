"""The counter's reads are answered from indexes, so they cost the same in a village and in a
county with a hundred thousand licenses a year; and on PostgreSQL a read the counter runs again
and again is prepared once per connection (settings.py: server-side binding)."""

import json
import re
from datetime import date

from django.db import connection
from django.test.utils import CaptureQueriesContext

from dogtag.enforcement import district
from dogtag.licensing import actions, counter_page
from dogtag.licensing.facts import covering_ids, own_licenses
from dogtag.licensing.models import License, Tag, TagLot, own_or_covering
from dogtag.registry.models import Animal
from tests.base import on
from tests.licensing.base import CounterApiTestCase


def scans(plan: dict):
    """Every node of a PostgreSQL plan (EXPLAIN FORMAT JSON) that reads a table."""
    if "Relation Name" in plan:
        yield plan
    for child in plan.get("Plans", []):
        yield from scans(child)


def table_reads(queryset, *, seqscan=False) -> list[str]:
    """How the database reads each table of the query: PostgreSQL's scans with their index
    conditions (sequential scans priced out, as a large table would price them, unless
    `seqscan`), SQLite's SEARCH (by an index) or SCAN (the whole table) lines."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL enable_seqscan = {'on' if seqscan else 'off'}")
        plan = json.loads(queryset.explain(format="json"))[0]["Plan"]
        # A value bound by the server reads as `'2'::smallint` where the text had `2`.
        reads = [f"{s['Relation Name']} {s.get('Index Cond', 'whole table')}" for s in scans(plan)]
        return [re.sub(r"'(\d+)'::[a-z]+", r"\1", read) for read in reads]
    return [line.split(" ", 3)[3] for line in queryset.explain().splitlines() if " SEARCH " in line or " SCAN " in line]


def others_licensed(t, n=2000, *, analyze=True):
    """A county's year: `n` licenses the test's dog has nothing to do with, and (with `analyze`)
    PostgreSQL's statistics of them (SQLite keeps statistics only when ANALYZE is run, and Dogtag
    never runs it)."""
    License.objects.bulk_create(
        License(
            municipality=t.benton,
            kind=License.Kind.MULTIPLE_DOG,
            license_year=2026,
            serial=5000 + i,
            holder=t.owner,
            issued_on=date(2026, 1, 2),
            expires_on=date(2026, 12, 31),
            tax=35,
            late_fee=0,
            issued_by=t.clerk,
            owner_name="Kennel",
            owner_address="1 Farm Rd",
            county="Lafayette",
        )
        for i in range(n)
    )
    if analyze and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


@on(date(2026, 5, 20))
class IndexedReadTests(CounterApiTestCase):
    def test_the_licenses_in_force_are_found_by_the_animal_not_by_reading_the_years_licenses(self):
        others_licensed(self)
        self.assertEqual(self.reads_of_the_licenses_in_force(), self.by_the_animal)

    def test_the_licenses_in_force_are_found_by_the_animal_when_the_statistics_predate_the_year(self):
        # A new license year: the statistics taken while it held no license, then a rush of them.
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        others_licensed(self, analyze=False)
        self.assertEqual(self.reads_of_the_licenses_in_force(), self.by_the_animal)

    def reads_of_the_licenses_in_force(self):
        reads = [*table_reads(own_licenses(self.dog.pk)), *table_reads(covering_ids(self.dog.pk))]
        if connection.vendor == "postgresql":
            return reads
        return [f"{r.split()[1]} {'(animal_id=?)' if r.startswith('SEARCH') else r}" for r in reads]

    @property
    def by_the_animal(self):
        animal = f"(animal_id = {self.dog.pk})" if connection.vendor == "postgresql" else "(animal_id=?)"
        return [f"licensing_license {animal}", f"licensing_license_covered_animals {animal}"]

    def test_the_counter_finds_a_years_next_tag_in_stock_by_the_stocks_index(self):
        # Late in the year: two thousand tags issued, two thousand more still in stock.
        lot = TagLot.objects.get(municipality=self.benton, license_year=2026)
        Tag.objects.bulk_create(
            Tag(
                municipality=self.benton,
                lot=lot,
                license_year=2026,
                serial=5000 + n,
                status=Tag.Status.ISSUED if n < 2000 else Tag.Status.IN_STOCK,
            )
            for n in range(4000)
        )
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        reads = table_reads(counter_page.with_stock(self.dog.pk, (2025, 2026, 2027)), seqscan=True)
        tags = [r for r in reads if r.startswith(("licensing_tag", "SEARCH U0", "SCAN U0"))]
        self.assertEqual(len(tags), 3, reads)
        if connection.vendor == "postgresql":
            this_year = [r for r in tags if "license_year = 2026" in r]  # none: a scan of the whole table
            self.assertEqual(len(this_year), 1, reads)
            self.assertIn("status = 'in-stock'", this_year[0])
        else:
            self.assertTrue(all(r.startswith("SEARCH") and "status=?" in r for r in tags), reads)

    def test_the_not_exempt_lists_license_in_force_is_found_by_the_animal_on_each_side(self):
        others_licensed(self)
        animal = Animal.objects.filter(pk=self.dog.pk).annotate(serial=district._license_serial(date(2026, 5, 20)))
        reads = table_reads(animal)
        if connection.vendor == "postgresql":
            licenses = [r for r in reads if r.startswith("licensing_license ")]
            self.assertEqual(len(licenses), 4, reads)  # the year and the serial, of each side
            self.assertTrue(all("animal_id = registry_animal.id" in r or "(id = " in r for r in licenses), reads)
        else:
            licenses = [r for r in reads if " licensing_license" in r or " U0" in r or " U1" in r]
            self.assertTrue(licenses, reads)
            self.assertTrue(all(r.startswith("SEARCH") for r in licenses), licenses)

    def test_own_or_covering_finds_the_dogs_own_license_and_the_multiple_dog_license_covering_it(self):
        own = self.issue_rex()
        self.assertEqual(list(License.objects.filter(own_or_covering(self.dog.pk))), [own])
        self.assertEqual(list(License.objects.filter(own_or_covering([self.dog.pk, 0]))), [own])
        self.assertEqual(list(License.objects.filter(own_or_covering(0))), [])

    def test_on_postgresql_the_issue_is_logged_with_its_values_and_its_reads_prepared_once(self):
        if connection.vendor != "postgresql":
            self.skipTest("PostgreSQL's prepared statements")
        with CaptureQueriesContext(connection) as queries:
            self.issue_rex()
        write = next(q["sql"] for q in queries if q["sql"].startswith('INSERT INTO "licensing_license"'))
        outside_literals = re.sub(r"'(?:[^']|'')*'", "''", write)  # a quote may say "$5" (s. 174.05(5))
        self.assertIsNone(re.search(r"\$\d+(?![\d.])", outside_literals))  # the values in their places, not $1
        self.assertIn("'Rex'", write)
        for _ in range(6):
            list(self.dog.current_owners(date(2026, 5, 20)))
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["%registry_ownership%"]
            )
            self.assertEqual(cursor.fetchone()[0], 1)

    def issue_rex(self):
        return actions.issue_license(self.dog, acting_user=self.clerk, payment={"method": "cash", "amount": "15.00"})
