"""Pickers that scale: owner, premises and animal fields are type-ahead searches answering at
most ten matches in one query, scoped to the municipality; "New person" keeps what was typed
and comes back with the new person chosen; a likely duplicate person is named before it is made."""

from datetime import date

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dogtag.registry import actions
from dogtag.registry.models import Person
from tests.base import BaseTestCase, on

PERSON = {"kind": "individual", "name": "Pat Owner", "street": "12 Main St", "city": "Benton",
          "state": "WI", "postal_code": "53803"}  # fmt: skip


@on(date(2026, 11, 29))
class PickerTests(BaseTestCase):
    def test_the_owner_field_is_a_type_ahead_search_not_a_list_of_everyone(self):
        for n in range(30):
            actions.create_person(acting_user=self.clerk, municipality=self.benton, name=f"Owner {n:02d}",
                                  street=f"{n} Elm St", city="Benton", postal_code="53803")  # fmt: skip
        self.login(self.clerk)
        page = self.client.get(reverse("animal-new", args=["benton"]))
        self.assertContains(page, f'hx-get="{reverse("pick-people", args=["benton"])}"')
        self.assertNotContains(page, "Owner 17")  # no <option> per person
        url = reverse("pick-people", args=["benton"])
        self.client.get(url, {"owner_q": "Ow"})  # warm the session
        with CaptureQueriesContext(connection) as queries:
            r = self.client.get(url, {"owner_q": "Owner"})
        self.assertEqual(r.content.decode().count('data-pick="'), 10)
        # the session, the user, the second factor, the roles, the municipality (twice) and one for the matches
        self.assertLessEqual(len(queries), 8, [q["sql"] for q in queries])
        r = self.client.get(url, {"owner_q": "17 Elm"})
        self.assertContains(r, 'data-label="Owner 17, 17 Elm St"')
        # another municipality's people are not found
        actions.create_person(acting_user=self.webster_clerk, municipality=self.webster, name="Owner Webster",
                              street="1 Elm St", city="Webster", postal_code="54893")  # fmt: skip
        self.assertNotContains(self.client.get(url, {"owner_q": "Webster"}), "Owner Webster")
        # the chosen owner is posted as its id
        owner = Person.objects.get(name="Owner 17")
        r = self.client.post(reverse("animal-new", args=["benton"]),
                             {"owner": owner.pk, "owner_role": "owner", "species": "dog", "name": "Biscuit",
                              "sex": "female", "birth_date": "2024-01-01"})  # fmt: skip
        self.assertEqual(r.status_code, 302, r.content.decode()[-2000:])
        self.assertEqual(owner.ownerships.get().animal.name, "Biscuit")

    def test_new_person_keeps_what_was_typed_and_returns_to_the_form_with_the_person_chosen(self):
        self.login(self.clerk)
        back = reverse("animal-new", args=["benton"])
        r = self.client.get(reverse("person-new", args=["benton"]), {"name": "Robin Newcomer", "next": back})
        self.assertContains(r, 'value="Robin Newcomer"')
        r = self.client.post(f"{reverse('person-new', args=['benton'])}?next={back}",
                             {**PERSON, "name": "Robin Newcomer", "street": "3 Birch Ln"})  # fmt: skip
        robin = Person.objects.get(name="Robin Newcomer")
        self.assertRedirects(r, f"{back}?owner={robin.pk}")
        self.assertContains(self.client.get(r.url), 'value="Robin Newcomer, 3 Birch Ln')
        # an address outside the site is not followed
        r = self.client.post(f"{reverse('person-new', args=['benton'])}?next=https://evil.example/",
                             {**PERSON, "name": "Sam Other", "street": "4 Birch Ln"})  # fmt: skip
        self.assertRedirects(r, reverse("person", args=[Person.objects.get(name="Sam Other").pk]))

    def test_a_likely_duplicate_person_is_named_before_a_second_is_made(self):
        self.login(self.clerk)
        url = reverse("person-new", args=["benton"])
        r = self.client.post(url, {**PERSON, "name": "pat  owner", "street": "12 MAIN ST"})
        self.assertContains(r, f"Pat Owner, 12 Main St is already on record (person #{self.owner.pk})")
        self.assertEqual(Person.objects.filter(name__iexact="pat owner").count(), 1)
        r = self.client.post(url, {**PERSON, "confirm_not_duplicate": "on"})
        self.assertEqual(r.status_code, 302)
        self.assertEqual(Person.objects.filter(name="Pat Owner").count(), 2)
