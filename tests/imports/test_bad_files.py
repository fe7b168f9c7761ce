"""Every file of tests/bad_files/ run through the import and through the upload page (the worker's
check): the refusal index.yaml expects, the line and column named for a refused row, no 500, and
nothing written."""

import tracemalloc
from datetime import date
from pathlib import Path

import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from dogtag.imports.models import ImportRow, ImportRun
from dogtag.imports.rolls import RollError, plan
from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Person, RabiesVaccination
from tests.base import BaseTestCase, on

BAD = Path(__file__).resolve().parent.parent / "bad_files"
CASES = yaml.safe_load((BAD / "index.yaml").read_text())
WRITTEN = (Person, Animal, RabiesVaccination, License, ImportRow)


@on(date(2026, 3, 2))
class BadFileTests(BaseTestCase):
    def counts(self):
        return [model.objects.count() for model in WRITTEN]

    def test_the_index_names_every_file_and_every_file_is_there(self):
        files = {p.name for p in BAD.iterdir() if p.name != "index.yaml"}
        self.assertEqual(files, set(CASES))

    def test_each_bad_file_is_refused_with_its_reason(self):
        before = self.counts()
        for name, case in CASES.items():
            with self.subTest(name):
                if "import" in case:
                    with self.assertRaises(RollError) as refused:
                        plan(self.benton, BAD / name, name)
                    self.assertIn(case["import"], str(refused.exception))
                    self.assertIn(name, str(refused.exception), "the refusal names the file")
                else:
                    found = plan(self.benton, BAD / name, name)
                    self.assertEqual(found.valid, 0)
                    got = [(p.line, p.column) for p in found.problems]
                    for line, column, rule in case["rows"]:
                        self.assertIn((line, column), got)
                        self.assertIn(
                            rule, next(p.rule for p in found.problems if (p.line, p.column) == (line, column))
                        )
        self.assertEqual(self.counts(), before)

    def test_each_bad_file_uploaded_fails_or_is_refused_on_its_page_and_nothing_is_written(self):
        self.login(self.clerk)
        before = self.counts()
        for name, case in CASES.items():
            with self.subTest(name):
                with self.captureOnCommitCallbacks(execute=True):
                    r = self.client.post(
                        reverse("import", args=["benton"]),
                        {"roll": SimpleUploadedFile(name, (BAD / name).read_bytes())},
                    )
                self.assertEqual(r.status_code, 302)
                run = ImportRun.objects.latest("pk")
                page = self.client.get(r.url)
                self.assertEqual(page.status_code, 200)
                if "import" in case:
                    self.assertEqual(run.state, ImportRun.State.FAILED)
                    self.assertIn(case["import"], run.error)
                    self.assertContains(page, "Failed")
                else:
                    self.assertEqual(run.state, ImportRun.State.CHECKED)
                    self.assertContains(page, "Nothing to import.")
                    for _line, _column, rule in case["rows"]:
                        self.assertContains(page, rule)
                    self.assertNotContains(page, 'step" value="confirm')
        self.assertEqual(self.counts(), before)

    def test_a_200_megabyte_field_is_refused_at_its_line_in_constant_memory(self):
        path = Path(self.enterContext(_temporary_directory())) / "huge.csv"
        with open(path, "wb") as f:
            f.write(b"owner_name,animal_name\r\nAnn,Bo\r\n")
            block = b"A" * (1 << 20)
            for _ in range(200):
                f.write(block)
            f.write(b",Rex\r\n")
        tracemalloc.start()
        try:
            with self.assertRaisesMessage(RollError, "huge.csv, line 3 is longer than 65,536 characters"):
                plan(self.benton, path, "huge.csv")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        self.assertLess(peak, 20 << 20, f"peak {peak:,} bytes while reading a 200 MB line")


def _temporary_directory():
    import tempfile

    return tempfile.TemporaryDirectory()
