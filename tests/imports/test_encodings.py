"""A roll saved as UTF-8 with a byte-order mark, UTF-16 (with or without the mark) or Windows-1252
is read as such, and the check names the encoding it found (issue 14, finding 6: such a file was
"no column owner_name" with raw bytes)."""

import codecs
import csv
import io
from datetime import date

from dogtag.registry.models import Animal, Person
from tests.base import BaseTestCase, on
from tests.imports.test_import import HEADER, import_roll, plan, row

NAME = "Zoë Müller"  # a letter outside ASCII, one Windows-1252 writes as a single byte


def text_roll() -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(HEADER)
    writer.writerow(row(owner=NAME, dog="Brûlée"))
    return out.getvalue()


ENCODED = {
    "UTF-8 with a byte-order mark": codecs.BOM_UTF8 + text_roll().encode("utf-8"),
    "UTF-16": text_roll().encode("utf-16"),  # the mark first, as Excel's "Unicode text" writes it
    "UTF-16 (little-endian, no byte-order mark)": text_roll().encode("utf-16-le"),
    "UTF-16 (big-endian, no byte-order mark)": text_roll().encode("utf-16-be"),
    "Windows-1252": text_roll().encode("cp1252"),
    "UTF-8": text_roll().encode("utf-8"),
}


@on(date(2026, 3, 2))
class EncodingTests(BaseTestCase):
    def test_each_encoding_is_found_named_and_read(self):
        for read_as, content in ENCODED.items():
            with self.subTest(read_as):
                found = plan(self.benton, "roll.csv", content)
                self.assertEqual(found.read_as, read_as)
                self.assertEqual((found.rows, found.valid, found.problems), (1, 1, []))

    def test_a_windows_1252_roll_is_written_with_its_letters(self):
        import_roll(self.benton, ENCODED["Windows-1252"], acting_user=self.clerk)
        self.assertTrue(Person.objects.filter(name=NAME).exists())
        self.assertTrue(Animal.objects.filter(municipality=self.benton, name="Brûlée").exists())
