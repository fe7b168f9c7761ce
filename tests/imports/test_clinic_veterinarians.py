"""A veterinarian's account tied to its clinic: the vet's files are that clinic's without naming
it on the upload form; the clerk, uploading for a clinic, still chooses it."""

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from dogtag.imports.models import Clinic, ClinicFile
from tests.base import BaseTestCase
from tests.imports import test_clinic_files as clinic_files
from tests.imports.test_clinic_files import clinic_csv, line


class ClinicVeterinarianTests(BaseTestCase):
    upload = clinic_files.ClinicFileTests.upload

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.clinic = Clinic.objects.create(municipality=cls.benton, name="Benton Animal Clinic")
        cls.clinic.veterinarians.add(cls.vet)
        Clinic.objects.create(municipality=cls.benton, name="Lakeside Vets")

    def test_a_tied_veterinarians_file_is_the_clinics_whatever_the_form_names(self):
        self.assertEqual(self.upload(clinic_csv(line("N-1")), clinic="").clinic, self.clinic)
        self.assertEqual(self.upload(clinic_csv(line("N-2")), clinic="Lakeside Vets").clinic, self.clinic)

    def test_the_clerk_still_chooses_the_clinic_and_an_untied_vet_names_it(self):
        self.clinic.veterinarians.add(self.clerk)  # a clerk's own tie does not choose for the clerk
        chosen = self.upload(clinic_csv(line("N-1")), user=self.clerk, clinic="lakeside vets")
        self.assertEqual(chosen.clinic.name, "Lakeside Vets")
        self.clinic.veterinarians.remove(self.vet)
        with self.assertRaisesMessage(ValidationError, "Name the clinic whose certificates these are."):
            self.upload(clinic_csv(line("N-2")), clinic="")
        self.assertEqual(ClinicFile.objects.count(), 1)

    def test_the_upload_page_asks_the_clerk_for_the_clinic_and_not_the_tied_vet(self):
        url = reverse("clinic-files", args=["benton"])
        self.login(self.vet)
        page = self.client.get(url)
        self.assertNotContains(page, 'name="clinic"')
        self.assertContains(page, "Uploaded as Benton Animal Clinic's certificates")
        posted = self.client.post(url, {"certificates": SimpleUploadedFile("november.csv", clinic_csv(line("N-1")))})
        clinic_file = ClinicFile.objects.get()
        self.assertRedirects(posted, reverse("clinic-file", args=["benton", clinic_file.pk]))
        self.assertEqual((clinic_file.clinic, clinic_file.uploaded_by), (self.clinic, self.vet))
        self.login(self.clerk)
        self.assertContains(self.client.get(url), 'name="clinic"')
        refused = self.client.post(url, {"certificates": SimpleUploadedFile("december.csv", clinic_csv(line("N-2")))})
        self.assertContains(refused, "This field is required.", status_code=200)
        self.assertEqual(ClinicFile.objects.count(), 1)
