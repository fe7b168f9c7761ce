"""Implausible data refused with the field named (issue 14, finding 5): birth dates too old or in
the future (API, staff forms, portal), amounts that are not numbers, steps dated in the future,
a hearing form sent twice, a second issued hen permit for one parcel and year."""

import json
from datetime import date

from django.core.exceptions import ValidationError

from dogtag.accounts.actions import issue_api_token
from dogtag.enforcement import actions as enforcement
from dogtag.portal.forms import ApplicationForm
from dogtag.registry.models import Animal
from tests.base import BaseTestCase, on
from tests.enforcement.fixtures import benton_cases
from tests.portal.helpers import FULL

TODAY = date(2026, 12, 1)


@on(TODAY)
class BirthDateTests(BaseTestCase):
    def test_the_api_refuses_year_one_and_the_future_naming_the_field(self):
        token = issue_api_token(acting_user=self.clerk, user=self.clerk, name="x")[1]
        for born, words in (("0001-01-01", "more than 40 years ago"), ("2027-01-01", "in the future")):
            r = self.client.post(
                "/api/v1/municipalities/benton/animals",
                json.dumps({"owner_id": self.owner.pk, "name": "Old", "sex": "male", "birth_date": born}),
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {token}",
            )
            self.assertEqual(r.status_code, 422, r.content)
            self.assertIn(words, r.json()["errors"]["birth_date"][0])
        self.assertFalse(Animal.objects.filter(name="Old").exists())

    def test_the_staff_form_refuses_1800(self):
        self.login(self.clerk)
        r = self.client.post(
            f"/animals/{self.dog.pk}/edit/",
            {"name": "Rex", "species": "dog", "sex": "male", "status": "active", "birth_date": "1800-01-01"},
        )
        self.assertContains(r, "more than 40 years ago")
        self.dog.refresh_from_db()
        self.assertEqual(self.dog.birth_date, date(2024, 3, 1))

    def test_the_portal_refuses_1800(self):
        form = ApplicationForm({**FULL, "birth_date": "1800-01-01"})
        self.assertFalse(form.is_valid())
        self.assertIn("more than 40 years ago", form.errors["birth_date"][0])

    def test_forty_years_back_to_the_day_is_accepted(self):
        animal = Animal(municipality=self.benton, name="Elder", sex="male", birth_date=date(1986, 12, 1))
        animal.clean()  # no error on the limit itself
        animal.birth_date = date(1986, 11, 30)
        with self.assertRaises(ValidationError):
            animal.clean()


class AmountTests(BaseTestCase):
    def test_an_amount_that_is_not_a_number_is_refused_server_side(self):
        from dogtag.licensing.forms import PaymentFields

        form = PaymentFields({"method": "cash", "amount": "12abc"})
        self.assertFalse(form.is_valid())
        self.assertIn("amount", form.errors)


class StepDateTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        with on(date(2026, 2, 10)):
            benton_cases(cls)

    def test_a_hearing_request_received_in_the_future_is_refused(self):
        with on(date(2026, 3, 1)), self.assertRaises(ValidationError) as refused:
            enforcement.request_hearing(self.declaration, acting_user=self.officer, requested_on=date(2026, 3, 10))
        self.assertIn("in the future", refused.exception.message_dict["requested_on"][0])

    def test_service_in_the_future_is_refused(self):
        with on(date(2026, 3, 1)), self.assertRaises(ValidationError) as refused:
            enforcement.serve_declaration(
                self.declaration, acting_user=self.officer, service_method="personal_service", served_on="2026-03-09"
            )
        self.assertIn("served_on", refused.exception.message_dict)
