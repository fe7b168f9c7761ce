"""The full export restores into an empty Dogtag and loses nothing: export Benton, restore it
into a freshly migrated Dogtag (its own SQLite file, in a separate process), export again, and
compare every field of every row."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management import call_command

from dogtag.imports import actions
from tests.base import BaseTestCase
from tests.enforcement.fixtures import benton_cases
from tests.imports.test_import import GOOD, import_roll
from tests.licensing.base import benton_license
from tests.licensing.kennel_fixtures import benton_multiple_dog_and_kennel


def rows(directory: Path) -> dict:
    return {
        f.name: [json.loads(line) for line in f.read_text().splitlines()] for f in sorted(directory.glob("*.jsonl"))
    }


class ExportRoundTripTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.fee, cls.license = benton_license(cls)
        benton_cases(cls)
        benton_multiple_dog_and_kennel(cls)
        import_roll(cls.benton, GOOD, acting_user=cls.clerk)

    def test_a_restored_export_loses_nothing(self):
        first, second, var = (Path(tempfile.mkdtemp(prefix="dogtag-export-")) for _ in range(3))
        call_command("export", str(first), municipality="benton", stdout=open(os.devnull, "w"))
        exported = rows(first)
        self.assertEqual(len(exported["registry.municipality.jsonl"]), 1)
        self.assertGreater(len(exported["audit.auditevent.jsonl"]), 10)
        self.assertTrue(all(r["fields"]["municipality"] == self.benton.pk for r in exported["licensing.license.jsonl"]))
        self.assertNotIn("password", exported["auth.user.jsonl"][0]["fields"])
        self.assertEqual(
            {r["fields"]["username"] for r in exported["auth.user.jsonl"]} >= {"alice", "otto", "vera"}, True
        )
        self.assertFalse(
            any(r["fields"]["municipality"] == self.webster.pk for r in exported["accounts.membership.jsonl"]),
            "only Benton's memberships",
        )
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{var / 'empty.sqlite3'}", "DOGTAG_VAR_DIR": str(var)}
        dogtag = [sys.executable, "-m", "dogtag"]
        for command in (
            ["migrate", "-v0"],
            ["restore", str(first)],
            ["export", "--municipality", "benton", str(second)],
        ):
            done = subprocess.run(dogtag + command, env=env, capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
        again = rows(second)
        self.assertEqual(sorted(again), sorted(exported))
        for name, original in exported.items():
            self.assertEqual(len(again[name]), len(original), name)
            for before, after in zip(original, again[name], strict=True):
                self.assertEqual(before, after, f"{name} pk {before['pk']}")

    def test_restore_refuses_a_dogtag_that_already_holds_the_municipality(self):
        directory = Path(tempfile.mkdtemp(prefix="dogtag-export-"))
        call_command("export", str(directory), municipality="benton", stdout=open(os.devnull, "w"))
        with self.assertRaisesMessage(ValidationError, "is already here; restore into an empty Dogtag"):
            actions.restore(directory)
