"""A batch's work is set-based: checking or writing a batch takes the same statements whether it
holds 100 rows or 1,000 (and whatever the municipality already holds). Counted are the statements
sent through Django; on PostgreSQL each table's COPY goes beside them, one per table and batch."""

from datetime import date

from django.db import connection
from django.test.utils import CaptureQueriesContext

from dogtag.imports import actions, uploads
from dogtag.imports.rolls import plan
from tests.base import BaseTestCase, audit_chain_statements, on
from tests.imports.test_import import roll, row, saved

# Statements a written batch may take: the row keys looked up (recorded, and seen earlier in the
# file), what the batch matches (owners by match key, animals by microchip and by owner,
# certificates, licenses: imports/matching.py), four id blocks (each in a transaction of its
# own), the batch and its count, the audit event, the heartbeat, savepoints, and on SQLite the
# six inserts and the scratch table's row keys themselves (29 there, measured), and the audit
# chain's statements for the batch's event.
BOUND = 30 + audit_chain_statements(1)
# A batch checked for a kept plan, in batches of the write's size: its row keys, what it matches,
# the scratch table's rows and each kind's id block (18 on SQLite, measured).
CHECKED_BOUND = 18
# A batch of a kept plan: no lookups but whether anything changed since the check and whether
# this run wrote the batch already; the rest as above (16 on SQLite, measured; 11 on PostgreSQL,
# which COPYs and checks the batch's foreign keys before its count), and the audit chain's.
KEPT_BOUND = 16 + audit_chain_statements(1)


@on(date(2026, 3, 2))
class BatchQueryTests(BaseTestCase):
    def a_roll(self, prefix, rows):
        return saved(
            roll(
                *[
                    row(owner=f"{prefix} {i // 2}", street=f"{i // 2} {prefix} St", dog=f"{prefix} dog {i}",
                        cert=f"{prefix}-{i}")
                    for i in range(rows)
                ]
            )
        )  # fmt: skip

    def setUp(self):
        super().setUp()
        # What a process looks up once (each table's id sequence on PostgreSQL) looked up first,
        # so that no count below holds it.
        self.statements("Warm", 1, 10, keep=True)

    def statements(self, prefix, batches, size, keep=False):
        """(statements of the check, of the write) of a roll of `batches` batches of `size` rows,
        the check's plan kept for the write or not."""
        path = self.a_roll(prefix, batches * size)
        with CaptureQueriesContext(connection) as checked:
            found = plan(self.benton, path, "roll.csv", keep=keep, **({"batch_size": size} if keep else {}))
        self.assertEqual(found.valid, batches * size)
        with open(path, "rb") as f:
            run = actions.start_import(self.benton, found, acting_user=self.clerk, digest=uploads.keep(f))
        with CaptureQueriesContext(connection) as written:
            run = actions.run_import(run, path, acting_user=self.clerk, batch_size=size)
        self.assertEqual((run.written, run.batches.count()), (batches * size, batches))
        return len(checked), len(written)

    def test_a_batch_of_1000_rows_takes_the_statements_of_a_batch_of_100(self):
        per_batch = {}
        for size in (100, 1000):
            check_two, write_two = self.statements(f"Two{size}", 2, size)
            check_three, write_three = self.statements(f"Three{size}", 3, size)
            per_batch[size] = (check_three - check_two, write_three - write_two)
        self.assertEqual(per_batch[100], per_batch[1000])
        check, write = per_batch[1000]
        self.assertLessEqual(check, 2, "a checked batch: its row keys looked up")
        self.assertLessEqual(write, BOUND)

    def test_a_kept_plan_writes_a_batch_of_1000_rows_in_the_statements_of_a_batch_of_100(self):
        per_batch = {}
        for size in (100, 1000):
            check_two, write_two = self.statements(f"KeptTwo{size}", 2, size, keep=True)
            check_three, write_three = self.statements(f"KeptThree{size}", 3, size, keep=True)
            per_batch[size] = (check_three - check_two, write_three - write_two)
        self.assertEqual(per_batch[100], per_batch[1000])
        check, write = per_batch[1000]
        self.assertLessEqual(check, CHECKED_BOUND)
        self.assertLessEqual(write, KEPT_BOUND)
