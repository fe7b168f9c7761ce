"""A clinic's month of rabies certificates in one file (issue 30 §2): mapped once per clinic,
checked in the worker (each row matched to an animal and its owner, or listed with why), confirmed,
and recorded through the certificate action; bad rows write nothing and are named by row and
column."""

import csv
import io
from datetime import date

import openpyxl
from django.core.exceptions import ValidationError

from dogtag.audit.models import AuditEvent
from dogtag.imports import uploads
from dogtag.imports.actions import clinics
from dogtag.imports.clinics import guess
from dogtag.imports.files import open_table
from dogtag.imports.models import Clinic, ClinicFile
from dogtag.registry import actions as registry
from dogtag.registry.models import RabiesVaccination
from tests.base import BaseTestCase, on
from tests.imports.test_import import saved
from tests.licensing.base import benton_license

# A clinic's own export: its own headers, dates as month/day/year.
HEADER = [
    "Cert #", "Given", "Expires", "Product", "Lot", "Tag", "Vet", "Clinic Address", "Clinic Phone",
    "Chip", "License Tag", "Client", "Client Street", "Patient", "Species",
]  # fmt: skip
COLUMNS = {
    "rabies_certificate": "Cert #", "vaccinated_on": "Given", "rabies_expires_on": "Expires",
    "vaccine_type": "Product", "vaccine_serial": "Lot", "rabies_tag": "Tag", "veterinarian_name": "Vet",
    "veterinarian_address": "Clinic Address", "veterinarian_phone": "Clinic Phone", "microchip": "Chip",
    "license_tag": "License Tag", "owner_name": "Client", "owner_street": "Client Street", "animal_name": "Patient",
    "species": "Species",
}  # fmt: skip
TODAY = date(2026, 11, 20)


def line(cert, chip="", tag="", owner="", street="", dog="", given="11/02/2026", expires="11/02/2029", **more):
    values = [cert, given, expires, "killed virus, 3-year", "LOT-9", f"RT-{cert}", "Dr. Vera Vet",
              "1 Clinic Rd, Benton WI", "608-555-0100", chip, tag, owner, street, dog, "dog"]  # fmt: skip
    return values if not more else [more.get(h, v) for h, v in zip(HEADER, values, strict=True)]


def clinic_csv(*rows) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows([HEADER, *rows])
    return out.getvalue().encode()


class ClinicFileTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        benton_license(cls)  # Rex is licensed for 2026 with tag 1001
        cls.bo = registry.register_animal(
            acting_user=cls.clerk, municipality=cls.benton, owner=cls.owner, name="Bo", breed="Beagle",
            color="brown", sex="female", birth_date=date(2023, 1, 5),
        )  # fmt: skip

    def upload(self, content, name="november.csv", user=None, clinic="Benton Animal Clinic"):
        path = saved(content, "." + name.rsplit(".", 1)[1])
        with open(path, "rb") as f:
            digest = uploads.keep(f)
        header = open_table(path, name).header
        return clinics.upload_clinic_file(
            self.benton, clinic_name=clinic, digest=digest, name=name, header=header, acting_user=user or self.vet
        )

    def checked(self, content, **kwargs):
        clinic_file = self.upload(content, **kwargs)
        with self.captureOnCommitCallbacks(execute=True):
            clinics.map_clinic_file(clinic_file, columns=COLUMNS, date_format="%m/%d/%Y", acting_user=self.vet)
        clinic_file.refresh_from_db()
        return clinic_file

    def written(self, clinic_file):
        with self.captureOnCommitCallbacks(execute=True):
            clinics.confirm_clinic_file(clinic_file, acting_user=self.vet)
        clinic_file.refresh_from_db()
        return clinic_file

    @on(TODAY)
    def test_rows_are_matched_by_chip_tag_and_owner_and_recorded_once_confirmed(self):
        clinic_file = self.checked(
            clinic_csv(
                line("N-1", chip="985112000000001"),  # Rex by microchip
                line("N-2", tag="1001", given="11/03/2026", expires="11/03/2029"),  # Rex by license tag
                line("N-3", owner="PAT OWNER", street="12 main st.", dog="bo"),  # Bo by owner, street and name
            )
        )
        found = clinic_file.summary
        self.assertEqual(clinic_file.state, ClinicFile.State.CHECKED)
        self.assertEqual((found["rows"], found["matched"], found["unmatched"], found["invalid"]), (3, 3, 0, 0), found)
        self.assertEqual(
            [(r[0], r[2], r[3], r[4]) for r in found["matched_rows"]],
            [
                (2, "Rex", "Pat Owner", "microchip 985112000000001"),
                (3, "Rex", "Pat Owner", "license tag 1001"),
                (4, "Bo", "Pat Owner", "owner's name, street and animal's name"),
            ],
        )
        self.assertEqual(found["unlicensed_animals"], [self.bo.pk])  # Rex holds a 2026 license; Bo none
        self.assertFalse(RabiesVaccination.objects.filter(certificate_serial__startswith="N-").exists())

        self.written(clinic_file)
        self.assertEqual(clinic_file.state, ClinicFile.State.FINISHED)
        self.assertEqual(clinic_file.written, 3)
        bo = RabiesVaccination.objects.get(certificate_serial="N-3")
        self.assertEqual((bo.animal, bo.vaccinated_on, bo.expires_on), (self.bo, date(2026, 11, 2), date(2029, 11, 2)))
        self.assertEqual((bo.owner_name, bo.animal_name, bo.breed, bo.sex), ("PAT OWNER", "bo", "Beagle", "female"))
        self.assertEqual(bo.owner_address, self.owner.address)
        self.assertEqual(AuditEvent.objects.filter(action="vaccination.create", object_id__in=[str(bo.pk)]).count(), 1)
        self.assertEqual(
            AuditEvent.objects.filter(action="vaccination.create", actor=self.vet).count(), 4
        )  # R-1001 too

        # Written again (a worker that stopped and was started again): nothing twice.
        ClinicFile.objects.filter(pk=clinic_file.pk).update(written=0)
        clinic_file.refresh_from_db()
        self.assertEqual(clinics.write_clinic_file(clinic_file), 0)
        self.assertEqual(RabiesVaccination.objects.filter(certificate_serial__startswith="N-").count(), 3)

    @on(TODAY)
    def test_bad_rows_write_nothing_and_are_named_by_row_and_column(self):
        clinic_file = self.checked(
            clinic_csv(
                line("N-1", chip="985112000000001"),
                line("N-2", chip="985112000000001", given="13/45/2026"),  # no such date
                line("N-3", chip="985112000000001", given="11/05/2026", expires="11/01/2026"),  # expires first
                line("N-4", tag="1001", **{"Vet": ""}),  # a required cell blank
                line("N-1", chip="985112000000001"),  # the certificate of line 2 again
                line("N-6", chip="=HYPERLINK(1)"),  # a formula
            )
        )
        found = clinic_file.summary
        self.assertEqual((found["rows"], found["matched"], found["invalid"]), (6, 1, 5))
        self.assertEqual(
            [(p[0], p[1]) for p in found["problems"]],
            [(3, "Given"), (4, "Expires"), (5, "Vet"), (6, "Cert #"), (7, "Chip")],
        )
        rules = {p[0]: p[3] for p in found["problems"]}
        self.assertEqual(rules[3], "a date as MM/DD/YYYY")
        self.assertIn("must be after the vaccination date", rules[4])
        self.assertEqual(rules[5], "This field cannot be blank.")
        self.assertEqual(rules[6], "the same certificate as line 2")
        self.written(clinic_file)
        self.assertEqual(
            list(
                RabiesVaccination.objects.filter(certificate_serial__startswith="N-").values_list(
                    "certificate_serial", flat=True
                )
            ),
            ["N-1"],
        )

    @on(TODAY)
    def test_unmatched_rows_are_listed_with_why(self):
        clinic_file = self.checked(
            clinic_csv(
                line("U-1", chip="985112000009999"),
                line("U-2", tag="4242"),
                line("U-3", owner="Ann Arbor", street="5 Elm St", dog="Bo"),
                line("U-4", owner="Pat Owner", street="12 Main St", dog="Fido"),
                line("U-5"),
                line("U-6", chip="985112000000001", owner="Pat Owner", street="12 Main St", dog="Bo"),
            )
        )
        found = clinic_file.summary
        self.assertEqual((found["matched"], found["unmatched"]), (0, 6))
        self.assertEqual(
            [(u[0], u[3]) for u in found["unmatched_rows"]],
            [
                (2, "No animal has microchip 985112000009999."),
                (3, "No license tag 4242 is issued."),
                (4, "No owner 'Ann Arbor' at '5 Elm St'."),
                (5, "Pat Owner has no dog named 'Fido'."),
                (6, "The row gives no microchip, license tag or owner to find the animal by."),
                (7, "Microchip 985112000000001 and owner's name, street and animal's name name different animals; "
                    "check the row."),
            ],
        )  # fmt: skip
        with self.assertRaisesMessage(ValidationError, "nothing to record"):
            clinics.confirm_clinic_file(clinic_file, acting_user=self.vet)

    @on(TODAY)
    def test_the_clinics_columns_are_remembered_for_its_next_file_and_excel_is_read(self):
        self.checked(clinic_csv(line("N-1", chip="985112000000001")))
        clinic = Clinic.objects.get(municipality=self.benton, name="Benton Animal Clinic")
        self.assertEqual(clinic.columns, COLUMNS)

        book = openpyxl.Workbook()
        book.active.append(HEADER)
        book.active.append(line("X-1", owner="Pat Owner", street="12 Main St", dog="Bo"))
        out = io.BytesIO()
        book.save(out)
        # The clerk uploads for the clinic (named in other letters): the same clinic's columns.
        nxt = self.upload(out.getvalue(), name="december.xlsx", user=self.clerk, clinic="benton  animal clinic")
        self.assertEqual(nxt.clinic, clinic)
        self.assertEqual(guess(nxt.header, nxt.clinic.columns), COLUMNS)
        with self.captureOnCommitCallbacks(execute=True):
            clinics.map_clinic_file(nxt, columns=guess(nxt.header, clinic.columns), date_format="%m/%d/%Y",
                                    acting_user=self.clerk)  # fmt: skip
        nxt.refresh_from_db()
        self.assertEqual((nxt.summary["matched"], nxt.summary["invalid"]), (1, 0))

    def test_a_mapping_without_a_required_column_or_a_way_to_find_the_animal_is_refused(self):
        clinic_file = self.upload(clinic_csv(line("N-1")))
        columns = {
            k: v for k, v in COLUMNS.items() if k not in ("vaccinated_on", "microchip", "license_tag", "owner_name")
        }
        with self.assertRaises(ValidationError) as caught:
            clinics.map_clinic_file(clinic_file, columns=columns, date_format="%d", acting_user=self.vet)
        errors = caught.exception.message_dict
        self.assertEqual(errors["vaccinated_on"], ["Choose the file's column for vaccination date."])
        self.assertIn("microchip, its dog license tag", errors["microchip"][0])
        self.assertIn("is not a date format", errors["date_format"][0])
        clinic_file.refresh_from_db()
        self.assertEqual(clinic_file.state, ClinicFile.State.MAPPING)

    def test_only_the_municipalitys_certifiers_upload(self):
        from django.core.exceptions import PermissionDenied

        with self.assertRaises(PermissionDenied):
            self.upload(clinic_csv(line("N-1")), user=self.officer)


class ClinicFilePageTests(BaseTestCase):
    @on(TODAY)
    def test_a_vet_uploads_maps_confirms_and_sees_the_result(self):
        from django.core.files.uploadedfile import SimpleUploadedFile
        from django.urls import reverse

        self.login(self.vet)
        content = clinic_csv(
            line("W-1", chip="985112000000001"), line("W-2", chip="985112000000001", given="99/99/2026")
        )
        response = self.client.post(
            reverse("clinic-files", args=["benton"]),
            {"clinic": "Benton Animal Clinic", "certificates": SimpleUploadedFile("nov.csv", content, "text/csv")},
        )
        clinic_file = ClinicFile.objects.get()
        self.assertRedirects(response, reverse("clinic-file", args=["benton", clinic_file.pk]))
        page = self.client.get(response.url)
        self.assertContains(page, "Match the file")
        self.assertContains(page, '<option value="Cert #">Cert #</option>')  # the file's own headers to choose
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(response.url, {**COLUMNS, "date_format": "%m/%d/%Y"})
        page = self.client.get(response.url)
        self.assertContains(page, "Row 3, column “Given” (99/99/2026): a date as MM/DD/YYYY")
        self.assertContains(page, "Record 1 certificate")
        with self.captureOnCommitCallbacks(execute=True):
            self.client.post(response.url, {"step": "confirm"})
        page = self.client.get(response.url)
        self.assertContains(page, "Recorded 1 certificate.")
        self.assertTrue(RabiesVaccination.objects.filter(certificate_serial="W-1", animal=self.dog).exists())
        self.assertFalse(RabiesVaccination.objects.filter(certificate_serial="W-2").exists())

    def test_a_bad_mapping_is_named_beside_its_field_and_nothing_is_checked(self):
        from django.core.files.uploadedfile import SimpleUploadedFile
        from django.urls import reverse

        self.login(self.clerk)
        response = self.client.post(
            reverse("clinic-files", args=["benton"]),
            {"clinic": "Benton Animal Clinic", "certificates": SimpleUploadedFile("nov.csv", clinic_csv(line("W-1")))},
        )
        page = self.client.post(response.url, {"date_format": "%m/%d/%Y", "rabies_certificate": "Cert #"})
        self.assertContains(page, "Choose the file&#x27;s column for vaccination date.")
        self.assertEqual(ClinicFile.objects.get().state, ClinicFile.State.MAPPING)
