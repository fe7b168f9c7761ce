"""An import written by a real `dogtag worker` that is killed with kill -9 mid-run: its page
shows it interrupted once its heartbeat is stale, the clerk resumes it there, a new worker
finishes it, and every row exists once."""

import csv
from datetime import timedelta
from types import SimpleNamespace

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from dogtag.imports.models import ImportBatch, ImportRow, ImportRun
from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Person
from tests.base import Fixtures
from tests.worker.helpers import running_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)
ROWS = 24_000


def roll(path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["owner_name", "owner_street", "owner_city", "owner_postal_code", "animal_name", "sex",
                    "license_year", "license_issued_on", "license_tax"])  # fmt: skip
        for i in range(ROWS):
            w.writerow([f"Owner {i // 2}", f"{i // 2} Elm St", "Benton", "53803", f"Dog {i}", "female", "2025",
                        "2025-02-01", "10.00"])  # fmt: skip
    return path.read_bytes()


@override_settings(DOGTAG_TASKS_INLINE=False)
def test_an_import_killed_with_kill_9_is_shown_interrupted_and_resumed_from_its_page(tmp_path, settings):
    t = SimpleNamespace()
    Fixtures.build(t)
    client = Client()
    client.force_login(t.clerk)
    page = reverse("import", args=["benton"])
    r = client.post(page, {"roll": SimpleUploadedFile("roll.csv", roll(tmp_path / "roll.csv"), "text/csv")})
    run = ImportRun.objects.get()
    run_page = reverse("import-run", args=["benton", run.pk])
    assert r.url == run_page
    env = dict(DOGTAG_MEDIA_ROOT=settings.MEDIA_ROOT, DOGTAG_TASK_TIMEOUT=600, DOGTAG_TASK_RETRY=700)

    def state():
        run.refresh_from_db()
        return run.state

    with running_worker(tmp_path / "worker.log", **env) as worker:
        wait_for(lambda: state() == ImportRun.State.CHECKED, 240, "the worker's check", worker=worker)
        assert run.summary["valid"] == ROWS
        assert "Import 24000 rows" in client.get(run_page).content.decode()
        client.post(run_page, {"step": "confirm"})
        wait_for(lambda: ImportBatch.objects.filter(run=run).exists(), 240, "a first batch written", worker=worker)
        worker.kill_9()
    written = ImportRow.objects.filter(batch__run=run).count()
    assert 0 < written < ROWS, f"killed after {written} rows: the run had not finished"
    assert state() == ImportRun.State.RUNNING, "a fresh heartbeat: nobody can tell yet"
    with time_machine.travel(timezone.now() + timedelta(seconds=settings.DOGTAG_IMPORT_STALE_SECONDS + 1)):
        assert state() == ImportRun.State.INTERRUPTED
        shown = client.get(run_page).content.decode()
        assert "Interrupted" in shown and "Resume the import" in shown
        client.post(run_page, {"step": "resume"})
    assert state() == ImportRun.State.QUEUED
    with running_worker(tmp_path / "worker-2.log", **env) as worker:
        wait_for(lambda: state() == ImportRun.State.FINISHED, 300, "the resumed import", worker=worker)
    assert "Imported 24000 rows" in client.get(run_page).content.decode()
    assert run.written == ROWS and run.resumed == 1
    assert Animal.objects.filter(name__startswith="Dog ").count() == ROWS
    assert Person.objects.filter(name__startswith="Owner ").count() == ROWS // 2
    assert License.objects.filter(animal__name__startswith="Dog ").count() == ROWS
    assert ImportRow.objects.count() == ROWS
    numbers = list(ImportBatch.objects.filter(run=run).values_list("number", flat=True))
    assert len(numbers) == len(set(numbers))
