"""Implausible dates are refused, not written (issue 27, finding 8): one rule per kind of date
(lib/plausible_dates.py) for the API, the staff forms (the models' clean()) and the roll import."""

import json
from datetime import date

from django.test import SimpleTestCase

from dogtag.accounts.actions import issue_api_token
from dogtag.accounts.models import Membership, Role
from dogtag.lib import plausible_dates
from dogtag.registry.models import Animal, Ownership, RabiesVaccination
from tests.base import BaseTestCase, on
from tests.imports.test_import import HEADER, roll, row
from tests.imports.test_import import plan as plan_roll

TODAY = date(2026, 12, 1)
CERTIFICATE = {
    "certificate_serial": "R-9", "vaccinated_on": "2026-06-01", "vaccine_type": "killed virus",
    "vaccine_serial": "L-1", "expires_on": "2029-06-01", "veterinarian_name": "Dr. V",
    "veterinarian_address": "1 Clinic Rd", "veterinarian_phone": "608-555-0100", "rabies_tag_number": "RT-9",
}  # fmt: skip


@on(TODAY)
class RuleTests(SimpleTestCase):
    def test_each_kind_of_date_has_its_bounds(self):
        happened, runs = plausible_dates.HAPPENED, plausible_dates.RUNS
        self.assertIsNone(plausible_dates.problem(happened, date(1986, 12, 1), "Date acquired"))
        self.assertIn("more than 40 years ago", plausible_dates.problem(happened, date(1986, 11, 30), "Date acquired"))
        self.assertIn("in the future", plausible_dates.problem(happened, date(2026, 12, 2), "Date acquired"))
        self.assertIsNone(plausible_dates.problem(runs, date(2031, 12, 1), "Expiration date"))
        self.assertIn("more than 5 years ahead", plausible_dates.problem(runs, date(2031, 12, 2), "Expiration date"))
        self.assertIn("more than 40 years ago", plausible_dates.problem(runs, date(1970, 1, 1), "Start"))


@on(TODAY)
class EntryPointTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        Membership.objects.create(user=cls.clerk, municipality=cls.benton, role=Role.VETERINARIAN)
        cls.token = issue_api_token(acting_user=cls.clerk, user=cls.clerk, name="x")[1]

    def call(self, path, body, method="POST"):
        return self.client.generic(
            method, f"/api/v1{path}", json.dumps(body), content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {self.token}",
        )  # fmt: skip

    def refused(self, response, field, words):
        self.assertEqual(response.status_code, 422, response.content)
        self.assertIn(words, response.json()["errors"][field][0])

    def test_the_api_refuses_acquired_and_owned_from_in_year_one_and_a_zero(self):
        animals = Animal.objects.count()
        new = {"owner_id": self.owner.pk, "name": "Old", "sex": "male"}
        self.refused(self.call("/municipalities/benton/animals", {**new, "acquired_on": "0001-01-01"}),
                     "acquired_on", "more than 40 years ago")  # fmt: skip
        self.refused(self.call("/municipalities/benton/animals", {**new, "acquired_on": 0}),
                     "acquired_on", "January 1, 1970 is more than 40 years ago")  # fmt: skip
        self.refused(self.call("/municipalities/benton/animals", {**new, "owned_from": "0001-01-01"}),
                     "started_on", "more than 40 years ago")  # fmt: skip
        self.refused(self.call(f"/animals/{self.dog.pk}", {"acquired_on": "0001-01-01"}, "PATCH"),
                     "acquired_on", "more than 40 years ago")  # fmt: skip
        self.assertEqual(Animal.objects.count(), animals)

    def test_the_api_refuses_an_ownership_starting_in_9999(self):
        ownerships = Ownership.objects.count()
        body = {"person_id": self.owner.pk, "started_on": "9999-01-01"}
        self.refused(self.call(f"/animals/{self.dog.pk}/ownerships", body), "started_on", "more than 5 years ahead")
        self.assertEqual(Ownership.objects.count(), ownerships)

    def test_the_api_refuses_a_vaccination_valid_until_9999(self):
        vaccinations = RabiesVaccination.objects.count()
        body = {**CERTIFICATE, "expires_on": "9999-12-31"}
        self.refused(self.call(f"/animals/{self.dog.pk}/vaccinations", body), "expires_on", "more than 5 years ahead")
        self.assertEqual(RabiesVaccination.objects.count(), vaccinations)

    def test_the_import_refuses_them_too(self):
        header = [*HEADER, "acquired_on"]
        content = roll([*row(dog="Old", cert="C-7", rabies_expires_on="9999-12-31"), "0001-01-01"], header=header)
        problems = {p.column: p.rule for p in plan_roll(self.benton, "roll.csv", content).problems}
        self.assertIn("more than 40 years ago", problems["acquired_on"])
        self.assertIn("more than 5 years ahead", problems["rabies_expires_on"])
