"""The canvassing list of a clinic's file: the animals it showed vaccinated with no license in
force, and the invitations to license the worker sends their owners (an email in the owner's
language, or a printed letter in the clerk's print queue), with the fee the law computes today
and a renewal code; each once per animal and license year."""

import csv
import io
from datetime import date

from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.urls import reverse
from pypdf import PdfReader

from dogtag.audit.models import AuditEvent
from dogtag.imports.actions import canvass
from dogtag.imports.models import LicenseInvitation
from dogtag.licensing import actions as licensing
from dogtag.licensing.facts import read_facts
from dogtag.licensing.models import ReminderLetters
from dogtag.licensing.owed import what_is_owed
from dogtag.outbox.models import Message
from dogtag.portal.models import MunicipalityContact
from dogtag.registry import actions as registry
from dogtag.registry.models import RenewalCode
from tests.base import BaseTestCase, on, text
from tests.imports import test_clinic_files as clinic
from tests.imports.test_clinic_files import TODAY, clinic_csv, line
from tests.licensing.base import benton_license


class CanvassTests(BaseTestCase):
    upload, checked, written = (
        clinic.ClinicFileTests.upload,
        clinic.ClinicFileTests.checked,
        clinic.ClinicFileTests.written,
    )

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        benton_license(cls)  # Rex is licensed for 2026 with tag 1001
        cls.bo = registry.register_animal(
            acting_user=cls.clerk, municipality=cls.benton, owner=cls.owner, name="Bo", breed="Beagle",
            color="brown", sex="female", birth_date=date(2023, 1, 5), acquired_on=date(2023, 3, 1),
        )  # fmt: skip
        cls.kim = registry.create_person(
            acting_user=cls.clerk, municipality=cls.benton, name="Kim Nomail", street="3 Oak St", city="Benton",
            postal_code="53803", language="es",
        )  # fmt: skip
        cls.max = registry.register_animal(
            acting_user=cls.clerk, municipality=cls.benton, owner=cls.kim, name="Max", breed="Boxer",
            color="fawn", sex="male", birth_date=date(2022, 6, 1), acquired_on=date(2022, 8, 1), altered=True,
            altered_evidence="veterinarian's certificate",
        )  # fmt: skip

    def finished(self):
        clinic_file = self.checked(
            clinic_csv(
                line("N-1", chip="985112000000001"),  # Rex, licensed for 2026
                line("N-2", owner="Pat Owner", street="12 Main St", dog="Bo"),
                line("N-3", owner="Kim Nomail", street="3 Oak St", dog="Max"),
            )
        )
        self.written(clinic_file)
        return clinic_file

    def url(self, clinic_file):
        return reverse("clinic-file-canvass", args=["benton", clinic_file.pk])

    def send(self, clinic_file):
        self.login(self.clerk)
        with self.captureOnCommitCallbacks(execute=True):
            return self.client.post(self.url(clinic_file))

    @on(TODAY)
    def test_the_list_holds_the_vaccinated_animals_with_no_license_and_the_fee_today(self):
        clinic_file = self.finished()
        self.login(self.clerk)
        page = self.client.get(self.url(clinic_file))
        self.assertContains(page, "No 2026 license")
        self.assertContains(page, ">Bo<")
        self.assertContains(page, ">Max<")
        self.assertNotContains(page, ">Rex<")
        rows = list(csv.reader(io.StringIO(text(self.client.get(self.url(clinic_file), {"format": "csv"})))))
        self.assertEqual(rows[0], ["Animal", "Owner", "Invited by", "Fee today", "Invitation sent"])
        fee = {a.name: what_is_owed(read_facts(a, TODAY, 2026)).total for a in (self.bo, self.max)}
        self.assertEqual(
            sorted(rows[1:]),
            [
                ["Bo", "Pat Owner", "Email", f"{fee['Bo']:.2f}", ""],
                ["Max", "Kim Nomail", "Printed letter", f"{fee['Max']:.2f}", ""],
            ],
        )
        self.assertGreater(fee["Bo"], fee["Max"])  # the engine's figures: Bo is not spayed, Max is neutered
        self.assertContains(
            self.client.get(reverse("clinic-file", args=["benton", clinic_file.pk])), self.url(clinic_file)
        )

    @on(TODAY)
    def test_the_worker_emails_or_prints_each_invitation_once_with_the_fee_and_a_renewal_code(self):
        MunicipalityContact.objects.create(
            municipality=self.benton, office_address="200 Main St, Benton", clerk_phone="608-555-0111",
            clerk_hours="Monday to Friday, 8 to 4:30", police_phone="608-555-0199",
        )  # fmt: skip
        clinic_file = self.finished()
        self.assertRedirects(self.send(clinic_file), self.url(clinic_file))
        bo, max_ = (LicenseInvitation.objects.get(animal=a) for a in (self.bo, self.max))
        self.assertEqual((bo.channel, bo.person, bo.license_year), ("email", self.owner, 2026))
        self.assertEqual((max_.channel, max_.person), ("paper", self.kim))
        self.assertEqual(bo.fee, what_is_owed(read_facts(self.bo, TODAY, 2026)).total)
        self.assertEqual(max_.fee, what_is_owed(read_facts(self.max, TODAY, 2026)).total)
        codes = dict(RenewalCode.objects.filter(license_year=2026).values_list("animal_id", "code"))
        self.assertEqual((codes[self.bo.pk], codes[self.max.pk]), (bo.code, max_.code))

        email = Message.objects.get(kind="license-invitation")
        self.assertEqual((email.to, email, bo.message), ("pat@example.org", bo.message, email))
        self.assertEqual(email.subject, "Bo is not licensed for 2026 — Village of Benton")
        self.assertIn(f"${bo.fee}", email.text)
        self.assertIn(f"{bo.code[:4]}-{bo.code[4:]}", email.text)
        self.assertIn("/renew/", email.text)

        letters = ReminderLetters.objects.get(municipality=self.benton)
        self.assertEqual((letters.letters, max_.letters), (1, letters))
        with default_storage.open(letters.pdf, "rb") as f:
            page = PdfReader(f).pages[0].extract_text().replace("\n", " ")
        # Kim reads Spanish: the letter is in Spanish, with the fee, the code and the office.
        self.assertIn("Max no tiene licencia de 2026", page)
        self.assertIn(f"${max_.fee}", page)
        for office in ("200 Main St, Benton", "608-555-0111", "Monday to Friday, 8 to 4:30"):
            self.assertIn(office, page)
            self.assertIn(office, email.text)
        self.assertIn(f"{max_.code[:4]}-{max_.code[4:]}", page)

        self.assertEqual(AuditEvent.objects.filter(action="clinic_file.canvass", actor=self.clerk).count(), 1)
        sent = AuditEvent.objects.filter(action="license_invitation.send", actor=self.clerk)
        self.assertEqual(sorted(sent.values_list("object_id", flat=True)), sorted([str(bo.pk), str(max_.pk)]))

        # Asked again, and the worker's task run again: nothing is sent twice.
        self.send(clinic_file)
        self.assertEqual(
            canvass.send_license_invitations(clinic_file, acting_user=self.clerk, on=TODAY),
            {"emailed": 0, "printed": 0},
        )
        self.assertEqual(LicenseInvitation.objects.count(), 2)
        self.assertEqual(Message.objects.filter(kind="license-invitation").count(), 1)
        self.assertEqual(ReminderLetters.objects.count(), 1)
        self.assertEqual(sent.count(), 2)
        page = self.client.get(self.url(clinic_file))
        self.assertContains(page, "Printed letter")
        self.assertContains(page, "November 20, 2026")

    @on(TODAY)
    def test_an_animal_licensed_since_the_check_is_neither_listed_nor_invited(self):
        clinic_file = self.finished()
        licensing.issue_license(
            self.bo, acting_user=self.clerk, payment={"amount": "15.00", "method": "cash"}, on=TODAY
        )
        self.login(self.clerk)
        self.assertNotContains(self.client.get(self.url(clinic_file)), ">Bo<")
        self.send(clinic_file)
        self.assertEqual(list(LicenseInvitation.objects.values_list("animal", flat=True)), [self.max.pk])
        self.assertFalse(Message.objects.filter(kind="license-invitation").exists())

    @on(TODAY)
    def test_only_a_clerk_asks_and_only_for_a_file_whose_certificates_are_recorded(self):
        checked = self.checked(clinic_csv(line("N-2", owner="Pat Owner", street="12 Main St", dog="Bo")))
        with self.assertRaisesMessage(ValidationError, "once its certificates are recorded"):
            canvass.canvass_clinic_file(checked, acting_user=self.clerk)
        clinic_file = self.finished()
        self.login(self.vet)  # the clinic's veterinarian uploads its files; the clerk canvasses
        self.assertNotContains(self.client.get(reverse("clinic-file", args=["benton", clinic_file.pk])), "canvass")
        self.assertEqual(self.client.post(self.url(clinic_file)).status_code, 403)
        self.login(self.webster_clerk)
        self.assertEqual(self.client.get(self.url(clinic_file)).status_code, 404)
        self.assertFalse(LicenseInvitation.objects.exists())
        self.assertFalse(AuditEvent.objects.filter(action="clinic_file.canvass").exists())
