import csv
import gzip
import io
import tempfile
from datetime import date
from pathlib import Path
from unittest import mock

import openpyxl
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from dogtag.audit.models import AuditEvent
from dogtag.imports import actions, uploads
from dogtag.imports.models import ImportBatch, ImportRow, ImportRun
from dogtag.imports.rolls import BATCH_SIZE, Mapping, Planner, RollError
from dogtag.imports.rolls import plan as plan_path
from dogtag.licensing.models import License
from dogtag.registry.actions import create_person
from dogtag.registry.models import Animal, Ownership, Person, RabiesVaccination
from tests.base import BaseTestCase, on, text

HEADER = [
    "owner_name", "owner_street", "owner_city", "owner_postal_code", "animal_name", "breed", "color", "sex", "altered",
    "altered_evidence", "birth_date", "microchip", "rabies_certificate", "vaccinated_on", "rabies_expires_on",
    "vaccine_type", "vaccine_serial", "veterinarian_name", "veterinarian_address", "veterinarian_phone",
    "rabies_tag", "license_year", "license_serial", "license_issued_on", "license_tax", "license_late_fee",
]  # fmt: skip


def row(owner="Ann Arbor", street="5 Elm Street", dog="Bo", chip="", cert="C-1", year="2025", **overrides):
    values = dict(
        owner_name=owner, owner_street=street, owner_city="Benton", owner_postal_code="53803", animal_name=dog,
        breed="Beagle", color="brown",
        sex="female", altered="no", altered_evidence="", birth_date="2021-04-01", microchip=chip,
        rabies_certificate=cert, vaccinated_on="2024-05-01", rabies_expires_on="2027-05-01",
        vaccine_type="killed virus, 3-year", vaccine_serial="L-9", veterinarian_name="Dr. Vet",
        veterinarian_address="1 Clinic Rd", veterinarian_phone="608-555-0100", rabies_tag=f"T-{cert}",
        license_year=year, license_serial="77", license_issued_on=f"{year}-02-01" if year else "",
        license_tax="10.00" if year else "", license_late_fee="0.00" if year else "",
    )  # fmt: skip
    values.update(overrides)
    return [values[c] for c in HEADER]


def roll(*rows, header=HEADER) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode()


def saved(content: bytes, suffix=".csv") -> Path:
    """`content` in a file of its own (a roll is read from a file as it streams)."""
    f = tempfile.NamedTemporaryFile(suffix=suffix, delete=False)
    f.write(content)
    f.close()
    return Path(f.name)


def plan(municipality, name, content, mapping=None, **kwargs):
    return plan_path(municipality, saved(content, Path(name).suffix), name, mapping, **kwargs)


def import_roll(municipality, content, *, acting_user, name="roll.csv", mapping=None, keep=False, **kwargs):
    """Check the roll, then write it as a confirmed run (what the command line does), with the
    check's plan kept for the write or (`keep=False`) the file checked again as it is written."""
    path = saved(content, Path(name).suffix)
    found = plan_path(municipality, path, name, mapping, keep=keep, batch_size=kwargs.get("batch_size", BATCH_SIZE))
    with open(path, "rb") as f:
        digest = uploads.keep(f)
    run = actions.start_import(municipality, found, acting_user=acting_user, digest=digest)
    return actions.run_import(run, path, mapping, acting_user=acting_user, **kwargs)


GOOD = roll(
    row(),  # line 2: a new owner, dog, certificate and 2025 license
    row(cert="C-1b", year="2024"),  # line 3: the same dog (matched), its 2024 license and an older certificate
    row(owner="PAT OWNER", street="12 Main St.", dog="Rex", cert="R-1001", year="2025"),  # line 4: matches Fixtures
    row(),  # line 5: repeats line 2 exactly
    row(owner="Cy Young", street="9 Oak Ave", dog="Max", cert="C-2", birth_date="2099-01-01"),  # line 6: invalid
    row(owner="Di Smith", street="3 Pine Rd", dog="Zed", cert="C-3", sex="x", vaccinated_on="05/01/2024"),  # 7
    row(owner="Ed Jones", street="8 Ash Ln", dog="Pip", cert="C-4", altered="yes"),  # 8: no evidence of spaying
)


@on(date(2026, 3, 2))
class ImportPlanTests(BaseTestCase):
    def test_it_shows_what_the_roll_holds_before_writing(self):
        found = plan(self.benton, "roll.csv", GOOD)
        self.assertEqual(found.rows, 7)
        self.assertEqual(found.valid, 3)
        self.assertEqual(found.duplicates, [5])
        self.assertEqual((found.owners_new, found.owners_matched), (1, 1))
        self.assertEqual((found.animals_new, found.animals_matched), (1, 1))
        self.assertEqual((found.vaccinations_new, found.licenses_new), (2, 3))
        self.assertEqual(found.invalid_lines, {6, 7, 8})
        problems = {(p.line, p.column, p.value): p.rule for p in found.problems}
        self.assertEqual(problems[(6, "birth_date", "2099-01-01")], "Birth date January 1, 2099 is in the future.")
        self.assertEqual(problems[(7, "vaccinated_on", "05/01/2024")], "a date as YYYY-MM-DD")
        self.assertEqual(
            problems[(8, "altered_evidence", "")],
            "Say what shows the animal is spayed or neutered (s. 174.05(2): on evidence).",
        )
        self.assertEqual(Person.objects.count(), 1, "a dry run writes nothing")
        self.assertEqual(ImportRun.objects.count(), 0)

    def test_the_models_choices_reject_an_unknown_sex(self):
        found = plan(self.benton, "roll.csv", roll(row(owner="Di Smith", dog="Zed", cert="C-3", sex="x")))
        self.assertEqual(
            [(p.column, p.value, p.rule) for p in found.problems], [("sex", "x", "Value 'x' is not a valid choice.")]
        )

    def test_a_certificate_recorded_for_another_animal_is_refused(self):
        found = plan(self.benton, "roll.csv", roll(row(cert="R-1001")))
        self.assertEqual(
            [p.rule for p in found.problems], ["Certificate R-1001 is already recorded for another animal."]
        )

    def test_later_batches_of_a_dry_run_match_what_earlier_batches_would_write(self):
        """A dry run writes nothing, so what its earlier batches would add is matched from its
        scratch table (imports/matching.py), not from keys held for the whole file."""
        content = roll(
            row(owner="Ann Arbor", dog="Bo", chip="985112000000777", cert="C-1"),  # batch 1
            row(owner="Cy Young", street="9 Oak Ave", dog="Max", cert="C-2"),
            row(owner="ANN ARBOR", street="5 Elm St.", dog="Lu", cert="C-3"),  # batch 2: Ann, from batch 1
            row(owner="Ann Arbor", dog="Bo", chip="985112000000777", cert="C-1"),  # repeats line 2
            row(owner="Di Smith", street="3 Pine Rd", dog="Zed", cert="C-2"),  # batch 3: Max's certificate
            row(owner="Ed Jones", street="8 Ash Ln", dog="Bo 2", chip="985112000000777", cert="C-9", year=""),
        )
        planner = Planner(self.benton, saved(content), "roll.csv")
        written = [len(todo) for todo in planner.batches(2)]
        found = planner.plan
        self.assertEqual(written, [2, 1, 1])
        self.assertEqual(found.duplicates, [5])
        self.assertEqual((found.owners_new, found.animals_new, found.vaccinations_new), (3, 3, 4))
        self.assertEqual(
            [(p.line, p.rule) for p in found.problems], [(6, "Certificate C-2 is already recorded for another animal.")]
        )
        self.assertEqual(found.licenses_new, 3, "line 7's dog is Bo by its microchip, licensed for 2025 already")
        self.assertEqual(Person.objects.count(), 1, "a dry run writes nothing")

    def test_a_roll_without_the_owner_column_is_refused_whole(self):
        with self.assertRaisesMessage(RollError, "has no column 'owner_name'"):
            plan(self.benton, "roll.csv", roll(["Bo"], header=["animal_name"]))


@on(date(2026, 3, 2))
class ImportWriteTests(BaseTestCase):
    """The write checking the file again as it writes (a plan not kept, or one that something
    recorded since the check has made stale); KeptPlanWriteTests runs each again with the plan kept."""

    keep = False

    def run_import(self, content=GOOD, **kwargs):
        return import_roll(self.benton, content, acting_user=self.clerk, **{"keep": self.keep, **kwargs})

    def test_it_writes_the_valid_rows_and_one_audit_event_per_batch(self):
        events = AuditEvent.objects.count()
        run = self.run_import(batch_size=2)
        self.assertEqual((run.rows, run.written, run.skipped, run.invalid), (7, 3, 1, 3))
        self.assertEqual(run.batches.count(), 2)
        self.assertEqual(AuditEvent.objects.count(), events + 3, "the run, then one per batch")
        self.assertEqual(
            set(AuditEvent.objects.filter(action="import.batch").values_list("object_type", flat=True)),
            {"imports.importbatch"},
        )
        ann = Person.objects.get(name="Ann Arbor")
        bo = Animal.objects.get(name="Bo")
        self.assertEqual([o.person for o in bo.current_owners()], [ann])
        self.assertEqual(sorted(License.objects.filter(animal=bo).values_list("license_year", flat=True)), [2024, 2025])
        self.assertEqual(License.objects.get(animal=bo, license_year=2025).expires_on, date(2025, 12, 31))
        self.assertEqual(License.objects.get(animal=self.dog).holder, self.owner, "Pat Owner was matched")
        self.assertEqual(
            sorted(RabiesVaccination.objects.filter(animal=bo).values_list("certificate_serial", flat=True)),
            ["C-1", "C-1b"],
        )
        self.assertEqual(ImportRow.objects.count(), 3)

    def test_a_rerun_adds_nothing(self):
        self.run_import()
        counts = [m.objects.count() for m in (Person, Animal, Ownership, RabiesVaccination, License, ImportRow)]
        again = plan(self.benton, "roll.csv", GOOD)
        self.assertEqual((again.valid, again.already), (0, 4), "line 5 repeats line 2, imported already")
        self.assertEqual(again.invalid, 3)
        self.run_import()
        self.assertEqual(
            [m.objects.count() for m in (Person, Animal, Ownership, RabiesVaccination, License, ImportRow)], counts
        )

    def test_an_interrupted_run_resumes_without_duplicates(self):
        content = roll(
            *[row(owner=f"Owner {i}", street=f"{i} Elm St", dog=f"Dog {i}", cert=f"C-{i}") for i in range(7)]
        )
        real = actions._record_batch  # every batch's last step, with its records already sent

        def fail_third(run, number, *args, **kwargs):
            if number == 3:
                raise KeyboardInterrupt
            return real(run, number, *args, **kwargs)

        with mock.patch.object(actions, "_record_batch", fail_third), self.assertRaises(KeyboardInterrupt):
            self.run_import(content, batch_size=2)
        self.assertEqual(Animal.objects.filter(name__startswith="Dog ").count(), 4, "two whole batches committed")
        resumed = plan(self.benton, "roll.csv", content)
        self.assertEqual((resumed.already, resumed.valid), (4, 3))
        self.run_import(content, batch_size=2)
        self.assertEqual(Animal.objects.filter(name__startswith="Dog ").count(), 7)
        self.assertEqual(Person.objects.filter(name__startswith="Owner ").count(), 7)
        self.assertEqual(License.objects.filter(animal__name__startswith="Dog ").count(), 7)

    def test_a_run_killed_between_a_batch_and_its_heartbeat_counts_every_row_once(self):
        content = roll(
            *[row(owner=f"Owner {i}", street=f"{i} Elm St", dog=f"Dog {i}", cert=f"C-{i}") for i in range(6)]
        )
        path = saved(content, ".csv")
        found = plan_path(self.benton, path, "roll.csv", keep=self.keep, batch_size=2)
        with open(path, "rb") as f:
            run = actions.start_import(self.benton, found, acting_user=self.clerk, digest=uploads.keep(f))
        real, beats = actions._beat, []

        def die_after_second_batch(run):
            beats.append(run)
            if len(beats) == 3:  # the start, batch 1, then batch 2 has committed
                raise KeyboardInterrupt
            real(run)

        with mock.patch.object(actions, "_beat", die_after_second_batch), self.assertRaises(KeyboardInterrupt):
            actions.run_import(run, path, acting_user=self.clerk, batch_size=2)
        run.refresh_from_db()
        self.assertEqual(run.written, 4, "the count committed with the rows it counts")
        run = actions.run_import(run, path, acting_user=self.clerk, batch_size=2)
        self.assertEqual((run.written, run.skipped), (6, 0), "this run's own rows are not 'already imported'")

    def test_a_mapping_reads_another_layout_from_excel(self):
        book = openpyxl.Workbook()
        sheet = book.active
        sheet.append(["Owner", "Address", "Dog", "Sex", "DOB", "Chip"])
        sheet.append(["Gus Gray", "2 Birch Ct", "Lou", "M", date(2022, 7, 4), 985112000000999])
        sheet.append(["Gus Gray", "2 Birch Court", "Mo", "F", "07/04/2023", None])
        content = io.BytesIO()
        book.save(content)
        mapping = Mapping.parse(
            "columns: {owner_name: Owner, owner_street: Address, animal_name: Dog, sex: Sex, birth_date: DOB, "
            "microchip: Chip}\ndate_format: '%m/%d/%Y'\nvalues: {sex: {M: male, F: female}}\n"
            "defaults: {owner_city: Benton, owner_postal_code: '53803'}\n"
        )
        found = plan(self.benton, "roll.xlsx", content.getvalue(), mapping)
        self.assertEqual(found.problems, [])
        self.assertEqual((found.valid, found.owners_new, found.animals_new), (2, 1, 2))
        import_roll(self.benton, content.getvalue(), acting_user=self.clerk, name="roll.xlsx", mapping=mapping)
        lou = Animal.objects.get(name="Lou")
        self.assertEqual((lou.sex, lou.birth_date, lou.microchip), ("male", date(2022, 7, 4), "985112000000999"))
        self.assertEqual(Animal.objects.get(name="Mo").birth_date, date(2023, 7, 4))
        self.assertEqual(Person.objects.filter(name="Gus Gray").count(), 1, "2 Birch Ct is 2 Birch Court")

    def test_only_a_clerk_imports(self):
        with self.assertRaises(Exception) as e:
            import_roll(self.benton, GOOD, acting_user=self.vet)
        self.assertEqual(type(e.exception).__name__, "PermissionDenied")


@on(date(2026, 3, 2))
class KeptPlanWriteTests(ImportWriteTests):
    """The same writes from the check's kept plan (imports/plans.py), and what makes a plan stale."""

    keep = True

    def kept(self, content=GOOD):
        path = saved(content)
        found = plan_path(self.benton, path, "roll.csv", keep=True)
        self.assertTrue(found.kept)
        with open(path, "rb") as f:
            return actions.start_import(self.benton, found, acting_user=self.clerk, digest=uploads.keep(f))

    def test_the_kept_plan_is_written_without_reading_the_file_again(self):
        run = self.kept()
        run = actions.run_import(run, Path("/nonexistent/roll.csv"), acting_user=self.clerk)
        self.assertEqual((run.rows, run.written, run.skipped, run.invalid), (7, 3, 1, 3))
        self.assertEqual(Animal.objects.get(name="Bo").current_owners()[0].person.name, "Ann Arbor")
        self.assertEqual(License.objects.get(animal=self.dog, license_year=2025).holder, self.owner)

    def test_an_owner_registered_since_the_check_is_matched_not_added_again(self):
        run = self.kept()
        ann = create_person(
            acting_user=self.clerk,
            municipality=self.benton,
            name="Ann Arbor",
            street="5 Elm Street",
            city="Benton",
            postal_code="53803",
        )
        run = actions.run_import(run, Path(saved(GOOD)), acting_user=self.clerk)
        self.assertEqual(run.written, 3)
        self.assertEqual(Person.objects.filter(name="Ann Arbor").count(), 1)
        self.assertEqual([o.person for o in Animal.objects.get(name="Bo").current_owners()], [ann])

    def test_a_plan_changed_in_storage_is_not_written(self):
        run = self.kept()
        stored = Path(default_storage.path(f"{uploads.FOLDER}/{run.plan_sha256}"))
        self.addCleanup(stored.write_bytes, stored.read_bytes())  # the same plan is made by other tests
        stored.write_bytes(gzip.compress(gzip.decompress(stored.read_bytes()).replace(b"Ann Arbor", b"Eve Evil")))
        run = actions.run_import(run, Path(saved(GOOD)), acting_user=self.clerk)
        self.assertEqual(run.written, 3)
        self.assertFalse(Person.objects.filter(name="Eve Evil").exists())
        self.assertTrue(Person.objects.filter(name="Ann Arbor").exists())

    def test_another_import_since_the_check_makes_the_plan_stale(self):
        run = self.kept(roll(row()))
        self.run_import(roll(row(cert="C-1b", year="2024")), keep=False)  # Ann and Bo, written first
        run = actions.run_import(run, Path(saved(roll(row()))), acting_user=self.clerk)
        self.assertEqual(run.written, 1)
        self.assertEqual(Person.objects.filter(name="Ann Arbor").count(), 1)
        self.assertEqual(Animal.objects.filter(name="Bo").count(), 1)
        self.assertEqual(License.objects.filter(animal__name="Bo").count(), 2)


class ImportCommandTests(BaseTestCase):
    def test_the_dry_run_lists_every_invalid_row_and_writes_nothing(self):
        path = str(saved(GOOD))
        out = io.StringIO()
        call_command("import", path, municipality="benton", dry_run=True, stdout=out)
        text = out.getvalue()
        self.assertIn("to import:         3", text)
        self.assertIn("owners:            1 new, 1 matched", text)
        self.assertIn(
            "line 6, column 'birth_date', value '2099-01-01': Birth date January 1, 2099 is in the future.", text
        )
        self.assertEqual(ImportRun.objects.count(), 0)

    def test_it_imports_with_a_progress_bar(self):
        out, err = io.StringIO(), io.StringIO()
        call_command("import", str(saved(GOOD)), municipality="benton", user="alice", stdout=out, stderr=err)
        self.assertIn("Imported 3 rows in 1 batches", out.getvalue())
        self.assertEqual(ImportBatch.objects.get().rows, 3)
        self.assertEqual(ImportRun.objects.get().started_by, self.clerk)

    def tmp_roll(self):
        import tempfile

        f = tempfile.NamedTemporaryFile(suffix=".csv", delete=False)
        f.write(GOOD)
        f.close()
        self.addCleanup(lambda: __import__("os").unlink(f.name))
        return f.name


@on(date(2026, 3, 2))
class UploadPageTests(BaseTestCase):
    def test_the_clerk_uploads_the_worker_checks_the_clerk_confirms(self):
        self.login(self.clerk)
        url = reverse("import", args=["benton"])
        with self.captureOnCommitCallbacks(execute=True):
            r = self.client.post(url, {"roll": SimpleUploadedFile("roll.csv", GOOD, "text/csv")})
        run = ImportRun.objects.get()
        self.assertRedirects(r, reverse("import-run", args=["benton", run.pk]))
        r = self.client.get(r.url)
        self.assertContains(r, "Checked; waiting for your confirmation")
        self.assertContains(r, "read as UTF-8")
        self.assertContains(r, "Import 3 rows")
        self.assertContains(r, "Birth date January 1, 2099 is in the future.")
        self.assertEqual(Person.objects.count(), 1, "the check writes nothing")
        with self.captureOnCommitCallbacks(execute=True):
            r = self.client.post(r.request["PATH_INFO"], {"step": "confirm"})
        r = self.client.get(r.url)
        self.assertContains(r, "Imported 3 rows; 1 already imported or repeated, 3 invalid.")
        run.refresh_from_db()
        self.assertEqual((run.state, run.written), (ImportRun.State.FINISHED, 3))
        r = self.client.get(url, {"format": "csv"})
        self.assertIn("roll.csv,alice,", text(r))

    def test_a_file_that_is_not_a_roll_fails_with_its_reason_on_the_page(self):
        self.login(self.clerk)
        with self.captureOnCommitCallbacks(execute=True):
            r = self.client.post(
                reverse("import", args=["benton"]), {"roll": SimpleUploadedFile("roll.csv", b"%PDF-1.4 <html>")}
            )
        r = self.client.get(r.url)
        self.assertContains(r, "Failed")
        self.assertContains(r, "roll.csv is a PDF document, not a roll")
        self.assertEqual(ImportRow.objects.count(), 0)

    def test_a_veterinarian_cannot_import(self):
        self.login(self.vet)
        self.assertEqual(self.client.get(reverse("import", args=["benton"])).status_code, 403)
