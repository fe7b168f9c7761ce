"""The printed renewal notices, read back from the worker's part with pypdf: a page a notice,
each with its owner, animal, amount and citations; long names wrap inside the page, every word
kept; any name prints; the seal is on every page, embedded once. And the run's merged PDF, made
in the memory of one part."""

import io
import tempfile
import tracemalloc
from datetime import date
from decimal import Decimal

from django.core.files.storage import default_storage
from django.db import connection
from django.test import SimpleTestCase, override_settings
from django.test.utils import CaptureQueriesContext
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from dogtag.lib.pdf import concatenate, drawing_fonts
from dogtag.licensing import actions, renewal_notice_pdf
from dogtag.licensing.renewal_notice_pdf import WIDTH
from dogtag.portal.models import MunicipalityContact
from dogtag.registry import actions as registry
from dogtag.registry.models import Animal, Municipality, Person
from dogtag.rules.decision import Citation
from tests.base import BaseTestCase, on
from tests.licensing.base import BENTON_FEES, set_fees
from tests.licensing.bulk import licensed_dogs
from tests.portal.helpers import JPEG, PNG, upload

LONG_NAME = "Maximiliana Bartholomew-Featherstonehaugh van der Westhuizen-Oppenheimer Throckmorton-Smythe the Third"
LONG_ANIMAL = "Sir Reginald Fluffington of Upper Benton Heights the Second"
LONG_STREET = "12345 North Old Military Ridge Road Extension, Apartment 1207B, Building Seventeen, Rear Entrance"


class PrintedNoticeTests(BaseTestCase):
    def setUp(self):
        set_fees(self.clerk, self.benton, BENTON_FEES)

    def print_run(self, dogs=3, **settings):
        """A run of 2027 notices for `dogs` licensed dogs, every part printed by the worker's task;
        the pages of its one part."""
        with on(date(2026, 12, 1)), override_settings(DOGTAG_RENEWAL_CHUNK_SIZE=200, **settings):
            run = actions.start_renewal_run(acting_user=self.clerk, municipality=self.benton, license_year=2027)
            chunk = run.chunks.get()
            actions.print_renewal_chunk(chunk.pk)
            chunk.refresh_from_db()
        with default_storage.open(chunk.pdf, "rb") as f:
            return PdfReader(io.BytesIO(f.read())).pages

    def rename(self, i, **owner):
        Person.objects.filter(name=f"Owner {i:05d}").update(**owner)

    def test_each_notice_is_one_page_with_its_owner_animal_amount_and_citations(self):
        licensed_dogs(self.benton, self.clerk, 4, year=2026)
        pages = self.print_run()
        self.assertEqual(len(pages), 4)
        for i, page in enumerate(pages):
            text = page.extract_text()
            self.assertIn(f"Owner {i:05d}\n{i} Elm St\nBenton, WI 53803", text)
            self.assertIn(f"2027 license renewal: Dog {i:05d}", text)
            self.assertIn(f"Animal: Dog {i:05d}, dog, Mix, brown", text)
            tax = "$5.00" if i % 2 == 0 else "$10.00"  # altered or not (BENTON_FEES)
            self.assertIn(f"2027 license tax: {tax}", text)
            self.assertIn("Due by: March 31, 2027, after which a late fee is added", text)
            self.assertIn("§ 115-3A", text)  # Benton's ordinance, as the tax's decision cites it
            self.assertIn("Bring or mail this notice, a current rabies vaccination certificate", text)
            self.assertIn("Village of Benton · Lafayette County, Wisconsin", text)

    def test_a_long_name_and_street_wrap_inside_the_page_with_every_word(self):
        licensed_dogs(self.benton, self.clerk, 1, year=2026)
        self.rename(0, name=LONG_NAME, street=LONG_STREET)
        Animal.objects.filter(name="Dog 00000").update(name=LONG_ANIMAL)
        (page,) = self.print_run()
        text = page.extract_text()
        words = text.split()
        for word in (LONG_NAME + " " + LONG_STREET).split():
            self.assertIn(word, words)
        lines = text.splitlines()
        name_lines = [line for line in lines if "Featherstonehaugh" in line or "Throckmorton" in line]
        self.assertEqual(len(name_lines), 2, "the long name runs on two lines")
        self.assertEqual(" ".join(line for line in lines if line in LONG_STREET), LONG_STREET)
        regular, _ = drawing_fonts()
        for line in lines:  # none is wider than the frame in the body's font (the heading's is larger)
            if "license renewal" not in line and "Fluffington" not in line:
                self.assertLessEqual(stringWidth(line, regular, 10.5), WIDTH + 0.5, line)

    def test_a_name_outside_latin_1_and_markup_in_a_name_print_as_written(self):
        licensed_dogs(self.benton, self.clerk, 2, year=2026)
        self.rename(0, name="Zoë Łukasz Dvořák", street="7 Żółta Ulica")
        self.rename(1, name="Smith & Sons <Kennel> Ltd.")
        Animal.objects.filter(name="Dog 00000").update(name="Łatka")
        first, second = (p.extract_text() for p in self.print_run())
        self.assertIn("Zoë Łukasz Dvořák\n7 Żółta Ulica", first + second)
        self.assertIn("2027 license renewal: Łatka", first + second)
        self.assertIn("Smith & Sons <Kennel> Ltd.", first + second)

    def test_without_a_seal_no_image_is_printed(self):
        licensed_dogs(self.benton, self.clerk, 2, year=2026)
        self.assertEqual([seals(p) for p in self.print_run()], [[], []])

    def test_the_seal_is_on_every_page_and_embedded_once(self):
        self.assert_one_seal_on_every_page(upload("seal.png", PNG))

    def test_a_jpeg_seal_too(self):
        self.assert_one_seal_on_every_page(upload("seal.jpg", JPEG))

    def test_the_office_line_names_only_what_the_contact_record_holds(self):
        contact = MunicipalityContact.objects.create(
            municipality=self.benton, office_address="200 Main St, Benton", clerk_phone="608-555-0111",
            clerk_hours=" ", police_phone="608-555-0199",
        )  # fmt: skip
        office = renewal_notice_pdf.office_lines(self.benton)
        self.assertEqual(office, "Clerk-Treasurer's office · 200 Main St, Benton · phone 608-555-0111")
        contact.clerk_phone, contact.clerk_hours = "", "Monday to Friday, 8 to 4:30"
        contact.save()
        self.benton.refresh_from_db()
        office = renewal_notice_pdf.office_lines(self.benton)
        self.assertEqual(office, "Clerk-Treasurer's office · 200 Main St, Benton · open Monday to Friday, 8 to 4:30")

    def assert_one_seal_on_every_page(self, image):
        registry.set_seal(self.benton, acting_user=self.clerk, upload=image)
        licensed_dogs(self.benton, self.clerk, 3, year=2026)
        found = [seals(p) for p in self.print_run()]
        self.assertEqual(len(found), 3)
        self.assertTrue(all(len(f) == 1 for f in found), found)
        self.assertEqual(len({f[0] for f in found}), 1, "one image object, shown on every page")

    def test_printing_a_part_makes_the_same_queries_for_2_notices_or_40(self):
        licensed_dogs(self.benton, self.clerk, 2, year=2026)
        licensed_dogs(self.benton, self.clerk, 40, year=2025, first=100)
        counts = []
        with on(date(2026, 12, 1)):
            for year in (2027, 2026):
                run = actions.start_renewal_run(acting_user=self.clerk, municipality=self.benton, license_year=year)
                with CaptureQueriesContext(connection) as queries:
                    actions.print_renewal_chunk(run.chunks.get().pk)
                counts.append((run.notices_created, len(queries)))
        self.assertEqual([n for n, _ in counts], [2, 40])
        self.assertEqual(counts[0][1], counts[1][1])


def seals(page) -> list:
    """The image objects a page draws (by their object number)."""
    xobjects = page["/Resources"].get("/XObject", {})
    return [ref.idnum for ref in xobjects.values() if ref.get_object()["/Subtype"] == "/Image"]


class MergedRunTests(SimpleTestCase):
    """The clerk's one PDF of a run: its parts one after another, in the memory of one part."""

    def parts(self, count, per_part=50):
        benton = Municipality(name="Benton", kind="village", county="Lafayette", slug="benton")
        rows = [
            {
                "owner": Person(name=f"Owner {i}", street=f"{i} Elm St", city="Benton", postal_code="53803"),
                "animal": Animal(name=f"Dog {i}", species="dog", breed="Mix", color="brown"),
                "tax": Decimal("5.00"),
                "due_by": date(2027, 3, 31),
                "citations": (Citation("wi", "174.05(2)", "..."),),
            }
            for i in range(per_part)
        ]
        part = renewal_notice_pdf.draw(benton, 2027, rows)
        return (io.BytesIO(part) for _ in range(count))

    def merged_peak(self, count) -> tuple[int, bytes]:
        parts = self.parts(count)  # one part drawn, read `count` times
        with tempfile.TemporaryFile() as out:  # on disk, as the worker's: the result is not in memory
            tracemalloc.start()
            try:
                self.assertEqual(concatenate(parts, out), count * 50)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
            out.seek(0)
            return peak, out.read()

    def test_the_parts_are_merged_in_order_with_every_page(self):
        _, merged = self.merged_peak(3)
        pages = PdfReader(io.BytesIO(merged)).pages
        self.assertEqual(len(pages), 150)
        self.assertIn("Owner 0\n0 Elm St", pages[0].extract_text())
        self.assertIn("2027 license renewal: Dog 49", pages[149].extract_text())
        self.assertIn("Wis. Stats. 174.05(2)", pages[149].extract_text())

    def test_merging_ten_times_the_parts_takes_no_more_memory(self):
        few, _ = self.merged_peak(4)
        many, _ = self.merged_peak(40)
        self.assertLess(many, few * 1.25, f"{few:,} bytes for 4 parts, {many:,} for 40")
