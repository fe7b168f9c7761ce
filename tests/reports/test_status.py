"""Status at a glance: the animal page's flags and the person page's licenses, cases and citations."""

from datetime import date

from django.urls import reverse

from dogtag.enforcement.models import Case
from tests.base import BaseTestCase, on
from tests.enforcement.fixtures import benton_cases
from tests.licensing.base import benton_license


@on(date(2026, 2, 10))
class StatusTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(date(2026, 2, 10)):
            cls.fee, cls.license = benton_license(cls)
            benton_cases(cls)

    def test_the_animal_page_flags_what_an_officer_or_clerk_must_know(self):
        self.login(self.clerk)
        page = self.client.get(reverse("animal", args=[self.dog.pk])).content.decode()
        flags = page.split('<ul class="flags" aria-label="Status">')[1].split("</ul>")[0]
        self.assertIn("Licensed 2026", flags)
        for case in Case.objects.filter(animal=self.dog, closed_on=None, kind__in=["declaration", "impoundment"]):
            self.assertIn(reverse("case", args=[case.pk]), flags)
        self.assertIn("Declared", flags)

    def test_an_expired_license_is_flagged(self):
        with on(date(2027, 2, 1)):
            self.login(self.clerk)
            page = self.client.get(reverse("animal", args=[self.dog.pk]))
        self.assertContains(page, "License expired")
        self.assertContains(page, "on December 31, 2026")

    def test_the_person_page_lists_licenses_cases_and_citations(self):
        self.login(self.clerk)
        page = self.client.get(reverse("person", args=[self.owner.pk]))
        self.assertContains(page, f'href="{reverse("license", args=[self.license.pk])}"')
        self.assertContains(page, "<h2>Cases</h2>", html=False)
        self.assertContains(page, "<h2>Citations</h2>", html=False)
        self.assertContains(page, f'href="{reverse("case", args=[self.citation.case_id])}"')
