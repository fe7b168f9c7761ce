"""Media (renewal batches, import uploads, portal and permit evidence) goes through Django's storage
API, never a path: with an in-memory store configured, every file lands there and nothing is
written under MEDIA_ROOT, so an object store (django-storages) works the same without code."""

from datetime import date
from pathlib import Path

from django.conf import settings
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse

from dogtag.imports.models import ImportRun
from dogtag.licensing import actions
from tests.base import BaseTestCase, on
from tests.imports.test_import import GOOD as ROLL
from tests.licensing.base import BENTON_FEES, set_fees

IN_MEMORY = {**settings.STORAGES, "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"}}


def files_under_media_root():
    return [p for p in Path(settings.MEDIA_ROOT).rglob("*") if p.is_file()]


@override_settings(STORAGES=IN_MEMORY)
class MediaStorageTests(BaseTestCase):
    def test_a_renewal_batch_is_stored_and_served_through_the_storage(self):
        before = files_under_media_root()
        set_fees(self.clerk, self.benton, BENTON_FEES)
        actions.receive_tag_lot(acting_user=self.clerk, municipality=self.benton, license_year=2026,
                                first_serial=1, last_serial=9, received_on=date(2026, 1, 2))
        with on(date(2026, 2, 2)):
            actions.issue_license(self.dog, acting_user=self.clerk, payment={"method": "cash", "amount": "10.00"})
        with on(date(2026, 12, 1)), self.captureOnCommitCallbacks(execute=True):
            run = actions.start_renewal_run(acting_user=self.clerk, municipality=self.benton, license_year=2027)
        run.refresh_from_db()  # printed and merged by the tasks run on commit
        self.assertEqual(type(default_storage._wrapped).__name__, "InMemoryStorage")
        self.assertTrue(run.pdf.startswith("renewals/") and default_storage.exists(run.pdf))
        self.login(self.clerk)
        r = self.client.get(reverse("renewal-batch", args=[run.pk]))
        self.assertEqual(r.status_code, 200)
        self.assertTrue(b"".join(r.streaming_content).startswith(b"%PDF"))
        self.assertEqual(files_under_media_root(), before)

    def test_a_batch_missing_from_storage_is_a_404_not_a_500(self):
        from dogtag.licensing.models import RenewalRun

        run = RenewalRun.objects.create(municipality=self.benton, license_year=2027, started_by=self.clerk,
                                        pdf="renewals/gone.pdf")
        self.login(self.clerk)
        self.assertEqual(self.client.get(reverse("renewal-batch", args=[run.pk])).status_code, 404)

    def test_an_uploaded_roll_is_kept_in_the_storage(self):
        before = files_under_media_root()
        self.login(self.clerk)
        r = self.client.post(reverse("import", args=["benton"]), {"roll": SimpleUploadedFile("roll.csv", ROLL)})
        run = ImportRun.objects.get(municipality__slug="benton")
        self.assertRedirects(r, reverse("import-run", args=["benton", run.pk]), fetch_redirect_response=False)
        digest = run.file_sha256
        self.assertEqual(default_storage.open(f"imports/{digest}").read(), ROLL)
        self.assertEqual(files_under_media_root(), before)
