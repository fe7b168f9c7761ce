"""The county clerk's report on paper: no cell cut. A long owner name, a long street and the
date of issue each come back whole on one line of the PDF's text (a cell wrapped mid-phrase comes
back in pieces on lines of their own; an address may go on to its city on the next line, as on
an envelope), the table fits the page's width (nothing runs off its right edge), and a report
longer than a page repeats its column headings on the next and its totals only once, at the end."""

import io
from datetime import date

from django.template.loader import render_to_string
from django.urls import reverse
from pypdf import PdfReader
from weasyprint import HTML
from weasyprint.formatting_structure import boxes

from dogtag.licensing import actions as licensing
from dogtag.registry import actions as registry
from dogtag.reports import queries
from tests.base import BaseTestCase, on
from tests.licensing.base import benton_license
from tests.reports.test_reports import vaccinate

OWNER = "Bartholomew & Maximiliana Vandenberg"
STREET = "12345 West Cedar Creek Meadows Rd"
ROWS = 45  # more than a landscape page holds
HEADINGS = "Year Serial Issued Owner Address Dog Sex Spayed/"  # "neutered" below, then "Breed Color Tax Voided"
PERIOD = {"start": date(2026, 1, 1), "end": date(2026, 12, 31), "on": date(2026, 2, 10)}


@on(date(2026, 2, 10))
class CountyReportOnPaperTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        benton_license(cls)
        for n in range(ROWS):
            owner = registry.create_person(acting_user=cls.clerk, municipality=cls.benton, name=f"{OWNER} {n:02d}",
                                           street=f"{STREET} {n:02d}", city="Benton", postal_code="53803")  # fmt: skip
            dog = registry.register_animal(acting_user=cls.clerk, municipality=cls.benton, owner=owner,
                                           name=f"Dog {n:02d}", breed="Bernese Mountain Dog", color="black and tan",
                                           sex="female", birth_date=date(2023, 1, 5))  # fmt: skip
            vaccinate(cls, dog, f"C-{n}")
            licensing.issue_license(dog, acting_user=cls.clerk, payment={"amount": "10.00", "method": "cash"})

    def pages(self):
        self.login(self.clerk)
        r = self.client.get(reverse("report-county-clerk", args=["benton"]),
                            {"start": "2026-01-01", "end": "2026-12-31", "format": "pdf"})  # fmt: skip
        self.assertEqual(r["Content-Type"], "application/pdf")
        return [page.extract_text() for page in PdfReader(io.BytesIO(r.content)).pages]

    def test_each_name_street_and_date_comes_back_whole_on_one_line(self):
        lines = [line for text in self.pages() for line in text.splitlines()]
        for n in range(ROWS):
            serial = 1002 + n  # Rex has 1001
            self.assertIn(f"2026 {serial} February 10, 2026 {OWNER} {n:02d} {STREET} {n:02d},", lines)
            # the columns after the address, whole: the last of them is not cut off at the page's edge
            self.assertIn(f"Dog {n:02d} female no Bernese Mountain Dog black and tan $10.00", lines)
        self.assertEqual(lines.count("Benton, WI 53803"), ROWS)  # (Rex's short address is on one line)

    def test_the_table_fits_the_page(self):
        report = queries.county_clerk(self.benton, PERIOD)
        html = render_to_string("reports/report_pdf.html", {"report": report, "municipality": self.benton})
        for page in HTML(string=html).render().pages:
            content = page._page_box
            for table in tables(content):
                self.assertLessEqual(table.position_x + table.width, content.content_box_x() + content.width)

    def test_a_long_report_repeats_its_headings_on_every_page_and_its_totals_once(self):
        pages = self.pages()
        self.assertGreater(len(pages), 1)
        for n, text in enumerate(pages, start=1):
            self.assertIn(HEADINGS, text.splitlines(), f"page {n}")
            self.assertIn(f"Page {n} of {len(pages)}", text)
        self.assertEqual([n for n, text in enumerate(pages, start=1) if "Total 46 $460.00" in text], [len(pages)])


def tables(box):
    """The table boxes WeasyPrint laid out on a page."""
    if isinstance(box, boxes.TableBox):
        yield box
    for child in getattr(box, "children", []):
        yield from tables(child)
