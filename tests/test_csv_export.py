"""Every list page exports CSV: the tables the page shows, scoped like the page."""

import csv
import io
from datetime import date

from django.urls import reverse

from dogtag.accounts.models import Role
from dogtag.lib.csv_export import tables_to_csv
from tests.base import BaseTestCase, make_user, on
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
]


def test_tables_become_csv_sections_without_the_why():
    html = """<h2>Animals</h2><table><tr><th>Name</th><th>Tag</th></tr><tr><td> Rex </td><td>101
    <details><summary>why?</summary>§ 115-3</details></td></tr></table>
    <h2>People</h2><table><tr><td>Pat, Owner</td></tr></table>"""
    rows = list(csv.reader(io.StringIO(tables_to_csv(html))))
    assert rows == [["Animals"], ["Name", "Tag"], ["Rex", "101"], [], ["People"], ["Pat, Owner"]]


@on(date(2026, 11, 29))
class ListCsvTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        benton_license(cls)
        cls.staff = make_user("staffer", (cls.benton, Role.CLERK), (cls.benton, Role.OFFICER))

    def test_every_list_page_offers_and_serves_csv(self):
        self.login(self.staff)
        for name, args in LIST_PAGES:
            with self.subTest(name):
                url = reverse(name, args=args)
                page = self.client.get(url, {"q": "Rex"} if name == "search" else {})
                self.assertContains(page, "Export this list as CSV")
                r = self.client.get(url, {"format": "csv", **({"q": "Rex"} if name == "search" else {})})
                self.assertEqual(r["Content-Type"], "text/csv; charset=utf-8")
                self.assertEqual(r.status_code, 200)
                list(csv.reader(io.StringIO(r.content.decode())))

    def test_the_search_export_holds_what_the_page_shows(self):
        self.login(self.clerk)
        rows = list(
            csv.reader(io.StringIO(self.client.get("/search/", {"q": "Rex", "format": "csv"}).content.decode()))
        )
        self.assertIn(["Animals"], rows)
        self.assertTrue(any(row[:1] == ["Rex"] for row in rows))

    def test_another_municipalitys_clerk_gets_no_rows(self):
        self.login(self.outsider)
        self.assertEqual(self.client.get(reverse("unlicensed", args=["benton"]), {"format": "csv"}).status_code, 404)
        body = self.client.get("/search/", {"q": "Rex", "format": "csv"}).content.decode()
        self.assertNotIn("Rex", body)
