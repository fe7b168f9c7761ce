"""Fixtures for animal control: an officer and a veterinarian serving all five municipalities,
and in each municipality an owner with a dog (vaccinated or not)."""

from datetime import date

from django.apps import apps
from django.urls import reverse

from dogtag.accounts.models import Role
from dogtag.enforcement.models import Case, Deadline
from dogtag.enforcement.steps import NEW, STEPS
from dogtag.registry import actions
from dogtag.registry.models import Municipality
from tests.base import BaseTestCase, make_user

# Every step on a case, every new case, and the permits issued from a declaration's page.
SENT_TWICE = {*STEPS, *NEW, "declaration-vicious-dog-permit", "declaration-vicious-dog-permit-renew"}
RECORDS = [
    model
    for label in ("enforcement", "permits", "licensing", "registry", "audit")
    for model in apps.get_app_config(label).get_models()
]


def written() -> dict[str, int]:
    """How many rows each table of the records holds (deadlines and audit events included)."""
    return {model._meta.label: model.objects.count() for model in RECORDS}


class EnforcementTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.places = {m.slug: m for m in Municipality.objects.all()}
        cls.chief = make_user("chief", *[(m, Role.OFFICER) for m in cls.places.values()])
        cls.doc = make_user("doc", *[(m, Role.VETERINARIAN) for m in cls.places.values()])
        cls.clerks = {slug: make_user(f"{slug}-c", (m, Role.CLERK)) for slug, m in cls.places.items()}

    @classmethod
    def owner_and_dog(cls, slug, name="Bruno", *, vaccinated_on=None, breed="Labrador", **animal):
        m = cls.places[slug]
        clerk = cls.clerks[slug]
        owner = actions.create_person(
            acting_user=clerk,
            municipality=m,
            name=f"{name}'s owner",
            street="9 Elm St",
            city=m.name,
            postal_code="53000",
        )
        premises = actions.create_premises(acting_user=clerk, municipality=m, street="9 Elm St", use="single-family")
        dog = actions.register_animal(
            acting_user=clerk,
            municipality=m,
            owner=owner,
            name=name,
            breed=breed,
            color="black",
            sex="male",
            birth_date=date(2022, 1, 1),
            acquired_on=date(2022, 3, 1),
            premises=premises,
            **animal,
        )
        if vaccinated_on:
            actions.record_vaccination(
                dog,
                acting_user=cls.doc,
                certificate_serial=f"{slug}-{name}",
                vaccinated_on=vaccinated_on,
                vaccine_type="killed virus, 3-year",
                vaccine_serial="L1",
                expires_on=vaccinated_on.replace(year=vaccinated_on.year + 3),
                veterinarian_name="Dr. Doc",
                veterinarian_address="1 Clinic Rd",
                veterinarian_phone="555-0100",
                rabies_tag_number=f"T-{name}",
            )
        return owner, premises, dog

    def post(self, name, pk_or_slug, data, *, follow=False):
        """Post a step's form. A step that succeeds is sent a second time, as a double click or
        a resent page would (issue 14): the repeat must write nothing — no record, no deadline,
        no audit event — and answer without a server error."""
        url = reverse(name, args=[pk_or_slug])
        response = self.client.post(url, data, follow=follow)
        succeeded = response.redirect_chain if follow else response.status_code == 302
        if name in SENT_TWICE and succeeded:
            for value in data.values():
                if hasattr(value, "seek"):
                    value.seek(0)
            before = written()
            again = self.client.post(url, data)
            self.assertIn(again.status_code, (200, 302), f"{name} sent twice")
            self.assertEqual(written(), before, f"{name} sent twice wrote again")
        return response

    def assert_posted(self, response):
        """A step succeeded: the page redirects to the case."""
        if response.status_code != 302:
            form = response.context and response.context.get("form")
            self.fail(
                f"expected a redirect, got {response.status_code}: {form.errors if form else response.content[:500]}"
            )
        self.assertFalse(response.url.startswith("/login"), "the session expired")
        return response

    def refused(self, response, *fragments):
        self.assertEqual(response.status_code, 200)
        body = response.content.decode()
        for fragment in fragments:
            self.assertIn(fragment, body)
        return body

    def deadline(self, case, key) -> Deadline:
        return case.deadlines.get(key=key, superseded=False)

    def latest_case(self, kind) -> Case:
        return Case.objects.filter(kind=kind).latest("pk")
