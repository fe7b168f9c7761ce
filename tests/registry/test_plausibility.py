"""Implausible data refused with the field named (issue 14, finding 5): birth dates too old or in
the future (API, staff forms, portal), amounts that are not numbers, steps dated in the future,
a hearing form sent twice, a second issued hen permit for one parcel and year."""

import json
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.urls import reverse

from dogtag.accounts.actions import issue_api_token
from dogtag.audit.models import AuditEvent
from dogtag.enforcement import actions as enforcement
from dogtag.enforcement.models import Hearing
from dogtag.licensing.actions import receive_tag_lot
from dogtag.licensing.models import FeeScheduleEntry, License, Payment
from dogtag.portal.forms import ApplicationForm
from dogtag.portal.models import Application
from dogtag.registry.models import Animal
from tests.base import CHICAGO, BaseTestCase, on, vaccinate
from tests.enforcement.fixtures import benton_cases
from tests.imports.test_import import plan as plan_roll
from tests.imports.test_import import roll, row
from tests.licensing.base import BENTON_FEES, set_fees
from tests.portal.helpers import FULL, MEDIA, upload

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

    def test_every_entry_point_refuses_both_naming_the_field(self):
        """The staff form for a new animal, the API's edit, the portal's application posted, the
        roll import: 1800-01-01 and tomorrow refused on each, nothing written."""
        token = issue_api_token(acting_user=self.clerk, user=self.clerk, name="x")[1]
        self.login(self.clerk)
        animals, events = Animal.objects.count(), AuditEvent.objects.count()
        for born, words in (("1800-01-01", "more than 40 years ago"), ("2026-12-02", "in the future")):
            with self.subTest(born):
                r = self.client.post(
                    reverse("animal-new", args=["benton"]),
                    {"owner": self.owner.pk, "owner_role": "owner", "species": "dog", "name": "Old", "sex": "male",
                     "birth_date": born},
                )  # fmt: skip
                self.assertIn(words, r.context["form"].errors["birth_date"][0])
                r = self.client.patch(
                    f"/api/v1/animals/{self.dog.pk}",
                    json.dumps({"birth_date": born}),
                    content_type="application/json",
                    HTTP_AUTHORIZATION=f"Bearer {token}",
                )
                self.assertEqual(r.status_code, 422, r.content)
                self.assertIn(words, r.json()["errors"]["birth_date"][0])
                found = plan_roll(self.benton, "roll.csv", roll(row(owner="Di Old", dog="Old", birth_date=born)))
                self.assertIn(words, {p.column: p.rule for p in found.problems}["birth_date"])
        self.assertEqual((Animal.objects.count(), AuditEvent.objects.count()), (animals, events))
        self.dog.refresh_from_db()
        self.assertEqual(self.dog.birth_date, date(2024, 3, 1))

    @MEDIA
    def test_the_portal_application_posted_refuses_1800_and_tomorrow(self):
        self.client.post("/apply/", {"municipality": self.benton.pk, "email": "dana@example.org"})
        app = Application.objects.get(email="dana@example.org")
        for born, words in (("1800-01-01", "more than 40 years ago"), ("2026-12-02", "cannot be in the future")):
            with self.subTest(born):
                data = {**FULL, "step": "review", "rabies_certificate_file": upload(), "birth_date": born}
                r = self.client.post(f"/apply/a/{app.token}/", data)  # the draft keeps what was typed
                self.assertRedirects(r, f"/apply/a/{app.token}/review/", fetch_redirect_response=False)
                r = self.client.get(r.url)  # the check shows the refusal beside the field
                self.assertIn(words, r.context["form"].errors["birth_date"][0])
                r = self.client.post(f"/apply/a/{app.token}/review/", {"provider": "counter"})
                self.assertIn(words, r.context["form"].errors["birth_date"][0])  # nothing submitted
                app.refresh_from_db()
                self.assertEqual(app.status, Application.Status.DRAFT)
        self.assertFalse(Animal.objects.filter(name=FULL["animal_name"]).exists())

    def test_forty_years_back_to_the_day_is_accepted(self):
        animal = Animal(municipality=self.benton, name="Elder", sex="male", birth_date=date(1986, 12, 1))
        animal.clean()  # no error on the limit itself
        animal.birth_date = date(1986, 11, 30)
        with self.assertRaises(ValidationError):
            animal.clean()


@on(TODAY)
class AmountTests(BaseTestCase):
    """ "12abc" typed where an amount goes, posted to the real pages: the field refused by the
    server (whatever the browser's number input let through), nothing issued, paid or set."""

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        set_fees(cls.clerk, cls.benton, BENTON_FEES)
        receive_tag_lot(
            acting_user=cls.clerk, municipality=cls.benton, license_year=2026, first_serial=1, last_serial=9
        )
        vaccinate(cls.dog, cls.vet, "R-2026", date(2026, 6, 1), date(2029, 6, 1))

    def written(self):
        return (License.objects.count(), Payment.objects.count(), FeeScheduleEntry.objects.count(),
                AuditEvent.objects.count())  # fmt: skip

    def test_an_amount_that_is_not_a_number_is_refused_server_side(self):
        self.login(self.clerk)
        before = self.written()
        for amount in ("12abc", "12,00abc", "$12", "NaN"):
            with self.subTest(amount):
                r = self.client.post(
                    reverse("license-counter", args=[self.dog.pk]), {"method": "cash", "amount": amount}
                )
                self.assertEqual(r.status_code, 200)
                self.assertEqual(r.context["form"].errors["amount"], ["Enter a number."])
                r = self.client.post(
                    reverse("fees", args=["benton"]),
                    {"key": "late_fee", "amount": amount, "effective_on": "2026-12-01", "authority": "Res. 9"},
                )
                self.assertEqual(r.status_code, 200)
                self.assertEqual(r.context["form"].errors["amount"], ["Enter a number."])
        self.assertEqual(self.written(), before)
        # The same page takes the amount written as a number.
        owed = self.client.get(reverse("license-counter", args=[self.dog.pk])).context["owed"].total
        r = self.client.post(reverse("license-counter", args=[self.dog.pk]), {"method": "cash", "amount": f"{owed}"})
        self.assertEqual(r.status_code, 302, r.context and r.context["form"].errors)
        self.assertEqual(License.objects.get().payment.amount, owed)


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

    def hearing(self):
        return Hearing.objects.create(
            municipality=self.benton, declaration=self.declaration, scheduled_on=date(2026, 2, 20), place="Hall"
        )

    def test_a_hearing_held_or_its_decision_sent_or_received_in_the_future_is_refused(self):
        hearing = self.hearing()
        events = AuditEvent.objects.count()
        with on(date(2026, 3, 1)):
            for fields in ({"held_on": "2026-03-10"}, {"held_on": "2026-03-01", "decision_sent_on": "2026-03-02"}):
                with self.subTest(fields), self.assertRaises(ValidationError) as refused:
                    enforcement.decide_hearing(
                        hearing, acting_user=self.officer, outcome="affirmed", findings="as found", **fields
                    )
                field, day = list(fields.items())[-1]
                self.assertIn(
                    f"{date.fromisoformat(day):%B %-d, %Y} is in the future", refused.exception.message_dict[field][0]
                )
            with self.assertRaises(ValidationError) as refused:
                enforcement.record_decision_received(
                    hearing, acting_user=self.officer, decision_received_on="2026-03-02"
                )
            self.assertIn("in the future", refused.exception.message_dict["decision_received_on"][0])
        hearing.refresh_from_db()
        self.assertEqual((hearing.held_on, hearing.decision_received_on), (None, None))
        self.assertEqual(AuditEvent.objects.count(), events)

    def test_the_hearing_decision_step_through_the_api_names_the_field(self):
        self.hearing()
        token = issue_api_token(acting_user=self.officer, user=self.officer, name="x")[1]
        with on(date(2026, 3, 1)):
            r = self.client.post(
                f"/api/v1/cases/{self.declaration.case_id}/steps/declaration-hearing-decision",
                json.dumps({"held_on": "2026-03-10", "outcome": "affirmed", "findings": "as found"}),
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {token}",
            )
        self.assertEqual(r.status_code, 422, r.content)
        self.assertIn("March 10, 2026 is in the future", r.json()["errors"]["held_on"][0])

    def test_an_impoundment_notice_an_appeal_or_a_removal_notice_in_the_future_is_refused(self):
        with on(date(2026, 3, 1)):
            calls = [
                ("notice_on", lambda: enforcement.give_impound_notice(
                    self.impoundment, acting_user=self.officer, notice_method="mail", notice_on="2026-03-05")),
                ("filed_on", lambda: enforcement.file_appeal(
                    self.declaration, acting_user=self.officer, filed_on="2026-03-05", to="Board of Appeals")),
                ("served_at", lambda: enforcement.serve_removal_notice(
                    self.declaration, acting_user=self.officer,
                    served_at=datetime(2026, 3, 5, 9, 0, tzinfo=CHICAGO))),
            ]  # fmt: skip
            for field, call in calls:
                with self.subTest(field), self.assertRaises(ValidationError) as refused:
                    call()
                self.assertIn("in the future", refused.exception.message_dict[field][0])
