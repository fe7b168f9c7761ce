"""The full export restores into an empty Dogtag and loses nothing: export Benton, restore it into
a freshly migrated Dogtag (its own database on the same engine, in a separate process), export
again, and compare every field of every row; and the export itself holds every field exactly as
the database does, timestamps to the microsecond."""

import io
import json
import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.db import connection

from dogtag.imports import actions
from dogtag.imports.exports import CHECKSUMS
from tests.base import BaseTestCase
from tests.enforcement.fixtures import benton_cases
from tests.imports.test_import import GOOD, import_roll
from tests.licensing.base import benton_license
from tests.licensing.kennel_fixtures import benton_multiple_dog_and_kennel
from tests.portal.fixtures import benton_application


def rows(directory: Path) -> dict:
    return {
        f.name: [json.loads(line) for line in f.read_text().splitlines()] for f in sorted(directory.glob("*.jsonl"))
    }


def empty_database(var: Path):
    """A URL for an empty database on this test run's engine, and how to drop it afterwards."""
    if connection.vendor == "sqlite":
        return f"sqlite:///{var / 'empty.sqlite3'}", lambda: None
    import psycopg

    s = connection.settings_dict
    name = f"{s['NAME']}_restore_{uuid.uuid4().hex[:8]}"
    options = dict(host=s["HOST"], port=s["PORT"] or 5432, user=s["USER"], password=s["PASSWORD"] or None)
    with psycopg.connect(dbname="postgres", autocommit=True, **options) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')

    def drop():
        with psycopg.connect(dbname="postgres", autocommit=True, **options) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    password = f":{s['PASSWORD']}" if s["PASSWORD"] else ""
    return f"postgres://{s['USER']}{password}@{s['HOST']}:{s['PORT'] or 5432}/{name}", drop


class ExportRoundTripTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.fee, cls.license = benton_license(cls)
        benton_cases(cls)
        benton_multiple_dog_and_kennel(cls)
        import_roll(cls.benton, GOOD, acting_user=cls.clerk, keep=True)
        benton_application(cls)  # a rabies certificate and the altered evidence, stored

    def stored(self) -> dict:
        """{storage name: bytes} of the files Benton's records name, as this Dogtag stores them."""
        from dogtag.imports.exports import scoped_models, stored_names

        found = {}
        for model in scoped_models():
            for obj in model._default_manager.filter(municipality=self.benton):
                for name in stored_names(obj):
                    with default_storage.open(name, "rb") as f:
                        found[name] = f.read()
        return found

    def export(self) -> Path:
        directory = Path(tempfile.mkdtemp(prefix="dogtag-export-"))
        call_command("export", str(directory), municipality="benton", stdout=open(os.devnull, "w"))
        return directory

    def test_the_export_holds_every_field_as_recorded_to_the_microsecond(self):
        directory = self.export()
        exact = 0
        for path in sorted(directory.glob("*.jsonl")):
            with open(path, encoding="utf-8") as f:
                for restored in serializers.deserialize("jsonl", f):
                    obj = restored.object
                    model = type(obj)
                    original = model._default_manager.get(pk=obj.pk)
                    for field in model._meta.concrete_fields:
                        if field.name == "password":
                            continue
                        before, after = getattr(original, field.attname), getattr(obj, field.attname)
                        self.assertEqual(before, after, f"{path.name} pk {obj.pk} {field.name}")
                        exact += bool(getattr(before, "microsecond", 0))
        self.assertGreater(exact, 10, "timestamps with microseconds came through whole")

    def test_a_restored_export_loses_nothing(self):
        first, second, var = self.export(), Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp(prefix="dogtag-var-"))
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
        covered = [r for r in exported["licensing.license.jsonl"] if r["fields"]["covered_animals"]]
        self.assertTrue(covered, "a multiple-dog license's dogs (many-to-many) are in the export")
        url, drop = empty_database(var)
        self.addCleanup(drop)
        env = {**os.environ, "DATABASE_URL": url, "DOGTAG_VAR_DIR": str(var)}
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
        # The stored files came with the rows (issue 27 §7): each at its name, byte for byte, and
        # the second export lists the same checksums.
        stored = self.stored()
        self.assertGreaterEqual(len(stored), 4, sorted(stored))  # roll, plan, certificate, evidence
        for name, content in stored.items():
            self.assertEqual((var / "media" / name).read_bytes(), content, name)
        self.assertEqual((second / CHECKSUMS).read_text(), (first / CHECKSUMS).read_text())
        self.assertEqual(len((first / CHECKSUMS).read_text().splitlines()), len(stored))
        for name, original in exported.items():
            self.assertEqual(len(again[name]), len(original), name)
            for before, after in zip(original, again[name], strict=True):
                self.assertEqual(before, after, f"{name} pk {before['pk']}")

    def test_restore_refuses_a_dogtag_that_already_holds_the_municipality(self):
        with self.assertRaisesMessage(ValidationError, "is already here; restore into an empty Dogtag"):
            actions.restore(self.export())

    def test_restore_names_each_stored_file_that_fails_its_checksum_and_restores_nothing(self):
        directory = self.export()
        listed = [line.split("  ", 1)[1] for line in (directory / CHECKSUMS).read_text().splitlines()]
        altered, lost = listed[0], listed[1]
        with open(directory / altered, "ab") as f:
            f.write(b"tampered")
        (directory / lost).unlink()
        with self.assertRaises(ValidationError) as refused:
            actions.restore(directory)
        message = " ".join(refused.exception.messages)
        self.assertIn("Nothing was restored: 2 stored file(s) failed their check", message)
        self.assertIn(f"{altered.removeprefix('files/')}: its SHA-256 does not match {CHECKSUMS}", message)
        self.assertIn(f"{lost.removeprefix('files/')}: missing from the export", message)

    def test_a_file_missing_from_storage_is_named_by_the_export(self):
        from dogtag.portal.models import Application

        name = "portal/certificates/lost-before-the-export.pdf"
        Application.objects.filter(pk=self.application.pk).update(rabies_certificate=name)
        directory = Path(tempfile.mkdtemp(prefix="dogtag-export-"))
        said = io.StringIO()
        call_command("export", str(directory), municipality="benton", stdout=said)
        self.assertIn(f"(listed in files-missing.txt): {name}", said.getvalue())
        self.assertEqual((directory / "files-missing.txt").read_text(), f"{name}\n")
        self.assertNotIn(name, (directory / CHECKSUMS).read_text())
