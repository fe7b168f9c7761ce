"""A kept plan written as the worker writes it, outside any test transaction: over two
connections at once on PostgreSQL (one on SQLite), every row once, owners whose dogs fall in a
later batch than themselves, batches numbered as they are written; and a batch that fails stops
the run at whole batches, which the run resumed completes."""

import threading
from datetime import date
from types import SimpleNamespace
from unittest import mock

import pytest
from django.db import connection

from dogtag.imports import actions, plans, uploads
from dogtag.imports.models import ImportBatch, ImportRow
from dogtag.imports.rolls import plan
from dogtag.licensing.models import License
from dogtag.registry.models import Animal, Ownership, Person
from tests.base import Fixtures, on
from tests.imports.test_import import roll, row, saved

pytestmark = pytest.mark.django_db(transaction=True)
ROWS, BATCH = 45, 5  # two dogs per owner: every other owner's second dog is in the next batch
WRITERS = 2 if connection.vendor == "postgresql" else 1


@pytest.fixture
def confirmed(settings):
    """A checked roll with its plan kept, confirmed by Benton's clerk."""
    settings.DOGTAG_IMPORT_WRITERS = 2
    t = SimpleNamespace()
    Fixtures.build(t)
    path = saved(
        roll(
            *[
                row(owner=f"Owner {i // 2}", street=f"{i // 2} Elm St", dog=f"Dog {i}", cert=f"W-{i}")
                for i in range(ROWS)
            ]
        )
    )
    with on(date(2026, 3, 2)):
        found = plan(t.benton, path, "roll.csv", keep=True, batch_size=BATCH)
        assert found.kept and found.valid == ROWS
        with open(path, "rb") as f:
            t.run = actions.start_import(t.benton, found, acting_user=t.clerk, digest=uploads.keep(f))
    t.path = path
    return t


def write(t):
    with on(date(2026, 3, 2)):
        return actions.run_import(t.run, t.path, acting_user=t.clerk, batch_size=BATCH)


def assert_every_row_once(run):
    assert run.written == ROWS
    assert Animal.objects.filter(name__startswith="Dog ").count() == ROWS
    assert Person.objects.filter(name__startswith="Owner ").count() == (ROWS + 1) // 2
    assert License.objects.filter(animal__name__startswith="Dog ").count() == ROWS
    assert ImportRow.objects.filter(batch__run=run).count() == ROWS
    owners = dict(Ownership.objects.filter(animal__name__startswith="Dog ").values_list("animal__name", "person__name"))
    assert all(owners[f"Dog {i}"] == f"Owner {i // 2}" for i in range(ROWS))


def test_a_batch_that_names_an_owner_an_earlier_batch_adds_is_known_as_one(confirmed):
    # Owner 2's dogs are rows 4 and 5, in batches 1 and 2; owner 7's rows 14 and 15, and so on.
    named = [batch.names_earlier for batch in plans.read(confirmed.run.plan_sha256)]
    assert named == [False, True, False, True, False, True, False, True, False]


def test_the_batches_go_over_two_connections_at_once_on_postgresql(confirmed):
    real, threads = actions._write_kept_batch, []
    both_writing = threading.Barrier(WRITERS, timeout=60)

    def watched(run, number, kept, **kwargs):
        threads.append(threading.get_ident())
        if len(threads) <= WRITERS:
            both_writing.wait()  # the first batches are in hand on every connection together
        return real(run, number, kept, **kwargs)

    with (
        mock.patch.object(actions, "_write_kept_batch", watched),
        mock.patch.object(actions, "_write_batch", side_effect=AssertionError("the file was checked again")),
    ):
        run = write(confirmed)
    assert len(threads) == ROWS // BATCH
    assert len(set(threads)) == WRITERS
    assert_every_row_once(run)
    numbers = sorted(ImportBatch.objects.filter(run=run).values_list("number", flat=True))
    assert numbers == list(range(1, ROWS // BATCH + 1))


def test_a_failing_batch_stops_the_run_at_whole_batches_and_the_resumed_run_completes_it(confirmed):
    real = actions._record_batch

    def third_fails(run, number, *args, **kwargs):
        if number == 3:
            raise RuntimeError("the disk filled")
        return real(run, number, *args, **kwargs)

    with mock.patch.object(actions, "_record_batch", third_fails), pytest.raises(RuntimeError, match="disk filled"):
        write(confirmed)
    batches = ImportBatch.objects.filter(run=confirmed.run)
    written = ImportRow.objects.filter(batch__run=confirmed.run).count()
    assert 2 <= batches.count() < ROWS // BATCH
    assert written == BATCH * batches.count(), "whole batches only"
    assert Animal.objects.filter(name__startswith="Dog ").count() == written
    assert not batches.filter(number=3).exists()

    confirmed.run.refresh_from_db()
    run = write(confirmed)
    assert_every_row_once(run)
    numbers = list(ImportBatch.objects.filter(run=run).values_list("number", flat=True))
    assert len(numbers) == len(set(numbers)) == ROWS // BATCH
