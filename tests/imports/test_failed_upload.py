"""A failed web import deletes its upload (issue 27 §9): the roll, and its mapping, kept under
imports/<sha256> by content, are deleted once the run has failed, unless another import that has
not failed refers to the same file."""

from datetime import date

from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from dogtag.imports import actions, uploads
from dogtag.imports.models import ImportRun
from tests.base import BaseTestCase, on
from tests.imports.test_import import GOOD

PNG_AS_ROLL = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
MAPPING = b"columns:\n  owner_name: Owner\n"


def stored(digest) -> bool:
    return default_storage.exists(f"{uploads.FOLDER}/{digest}")


@on(date(2026, 3, 2))
class FailedUploadTests(BaseTestCase):
    def upload(self, content, name="roll.csv", **files):
        with self.captureOnCommitCallbacks(execute=True):
            response = self.client.post(
                reverse("import", args=["benton"]), {"roll": SimpleUploadedFile(name, content), **files}
            )
        self.assertEqual(response.status_code, 302)
        return ImportRun.objects.latest("pk")

    def test_a_roll_that_cannot_be_read_is_deleted_with_its_mapping(self):
        self.login(self.clerk)
        run = self.upload(PNG_AS_ROLL, "photo.csv", mapping=SimpleUploadedFile("layout.yaml", MAPPING))
        self.assertEqual(run.state, ImportRun.State.FAILED)
        self.assertIn("is a PNG image, not a roll", run.error)
        self.assertTrue(run.file_sha256 and run.mapping_sha256)
        self.assertFalse(stored(run.file_sha256), "the failed roll is still stored")
        self.assertFalse(stored(run.mapping_sha256), "the failed run's mapping is still stored")
        self.assertContains(self.client.get(reverse("import-run", args=["benton", run.pk])), "Failed")

    def test_a_file_another_import_refers_to_is_kept_until_that_one_fails_too(self):
        self.login(self.clerk)
        first = self.upload(GOOD)
        self.assertEqual(first.state, ImportRun.State.CHECKED)
        second = self.upload(GOOD)
        self.assertEqual(second.file_sha256, first.file_sha256)
        plan = second.plan_sha256
        self.assertTrue(stored(plan))
        with self.captureOnCommitCallbacks(execute=True):
            actions.fail(second, "the worker could not read the file")
        self.assertTrue(stored(first.file_sha256), "deleted while another import still needs it")
        self.assertTrue(stored(first.plan_sha256))
        with self.captureOnCommitCallbacks(execute=True):
            actions.fail(first, "the worker could not read the file")
        self.assertFalse(stored(first.file_sha256))
        self.assertFalse(stored(first.plan_sha256))
