"""Pickers that scale in the officer's forms: every animal field of a new case (bite,
complaint, impoundment, exposure, declaration, declared elsewhere, citation) and of a step
(identify the biting animal) is a type-ahead search of the municipality's animals, and every
person field (the owner of a complaint or an impoundment, the person cited) one of its people:
never a list of every animal or person on record, and the page's queries do not grow with the
register."""

from datetime import date

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dogtag.enforcement.models import Case, Citation
from dogtag.registry import actions as registry
from tests.base import on
from tests.enforcement.helpers import EnforcementTestCase

NEW_WITH_AN_ANIMAL = (
    "bite-new",
    "complaint-new",
    "impoundment-new",
    "exposure-new",
    "declaration-new",
    "declared-elsewhere-new",
    "citation-new",
)


@on(date(2026, 6, 1))
class AnimalPickerTests(EnforcementTestCase):
    def page_queries(self, url):
        self.client.get(url)  # warm the session
        with CaptureQueriesContext(connection) as queries:
            page = self.client.get(url)
        self.assertEqual(page.status_code, 200)
        return page, len(queries)

    def test_every_animal_field_of_a_new_case_is_a_type_ahead_search(self):
        self.owner_and_dog("benton", "Dog 00")
        self.login(self.chief)
        pick = reverse("pick-animals", args=["benton"])
        before = {name: self.page_queries(reverse(name, args=["benton"]))[1] for name in NEW_WITH_AN_ANIMAL}
        for n in range(1, 25):
            self.owner_and_dog("benton", f"Dog {n:02d}")
        for name in NEW_WITH_AN_ANIMAL:
            page, queries = self.page_queries(reverse(name, args=["benton"]))
            self.assertContains(page, f'hx-get="{pick}"', msg_prefix=name)
            self.assertContains(page, 'placeholder="Type a name or microchip"', msg_prefix=name)
            self.assertNotContains(page, "Dog 17 (dog)", msg_prefix=name)  # no <option> per animal
            self.assertEqual(queries, before[name], f"{name}: the page's queries grow with the register")
        r = self.client.get(pick, {"animal_q": "Dog 1"})
        self.assertContains(r, 'data-label="Dog 17 (dog)"')

    def test_the_chosen_animal_is_posted_as_its_id_and_shown_by_name_when_the_form_comes_back(self):
        _, _, dog = self.owner_and_dog("benton", "Ranger")
        self.login(self.chief)
        # a refused form comes back with the animal still chosen, by name
        r = self.post("bite-new", "benton", {"animal": dog.pk, "victim_name": "Vic Tim", "place": "the yard"})
        self.assertContains(r, f'name="animal" value="{dog.pk}"')
        self.assertContains(r, 'value="Ranger (dog)"')
        # a stray bite, identified later with the picker's id
        self.assert_posted(
            self.post(
                "bite-new",
                "benton",
                {
                    "animal_description": "sable collie",
                    "victim_name": "Vic Tim",
                    "bitten_on": "2026-06-01",
                    "place": "the yard",
                },  # fmt: skip
            )
        )
        bite = Case.objects.filter(kind="bite").latest("pk").bite
        page = self.client.get(reverse("bite-identify", args=[bite.pk]))
        self.assertContains(page, f'hx-get="{reverse("pick-animals", args=["benton"])}"')
        self.assertNotContains(page, "<option")
        self.assert_posted(self.post("bite-identify", bite.pk, {"animal": dog.pk}))
        bite.refresh_from_db()
        self.assertEqual(bite.animal, dog)


# the new cases with a person field, and its name
NEW_WITH_A_PERSON = {"complaint-new": "owner", "impoundment-new": "owner", "citation-new": "person"}


@on(date(2026, 6, 1))
class PersonPickerTests(EnforcementTestCase):
    page_queries = AnimalPickerTests.page_queries

    def person(self, slug, name, street="9 Elm St"):
        m = self.places[slug]
        return registry.create_person(acting_user=self.clerks[slug], municipality=m, name=name, street=street,
                                      city=m.name, postal_code="53000")  # fmt: skip

    def test_every_person_field_of_a_new_case_is_a_type_ahead_search_of_the_municipalitys_people(self):
        self.person("benton", "Person 00")
        self.login(self.chief)
        pick = reverse("pick-people", args=["benton"])
        before = {name: self.page_queries(reverse(name, args=["benton"]))[1] for name in NEW_WITH_A_PERSON}
        for n in range(1, 25):
            self.person("benton", f"Person {n:02d}", street=f"{n} Oak St")
        for name, field in NEW_WITH_A_PERSON.items():
            page, queries = self.page_queries(reverse(name, args=["benton"]))
            self.assertContains(page, f'hx-get="{pick}"', msg_prefix=name)
            self.assertContains(page, f'name="{field}_q"', msg_prefix=name)
            self.assertContains(page, 'placeholder="Type a name or address"', msg_prefix=name)
            self.assertNotContains(page, "Person 17", msg_prefix=name)  # no <option> per person
            self.assertEqual(queries, before[name], f"{name}: the page's queries grow with the register")
        self.assertContains(self.client.get(pick, {"person_q": "Person 1"}), 'data-label="Person 17, 17 Oak St"')
        self.person("webster", "Person Webster")
        self.assertNotContains(self.client.get(pick, {"person_q": "Webster"}), "Person Webster")

    def test_the_person_cited_is_posted_as_its_id_shown_by_name_and_scoped(self):
        pat = self.person("webster", "Pat Cited", street="4 Court St")  # Webster § 98-6 sets its own forfeiture
        elsewhere = self.person("benton", "Ben Elsewhere")
        self.login(self.chief)
        citation = {"violation": "98-6 running at large", "description": "at large", "violated_on": "2026-05-30",
                    "days": 1, "costs": "0"}  # fmt: skip
        # a refused form comes back with the person still chosen, by name
        r = self.post("citation-new", "webster", {**citation, "person": pat.pk, "violated_on": ""})
        self.assertContains(r, f'name="person" value="{pat.pk}"')
        self.assertContains(r, 'value="Pat Cited, 4 Court St"')
        # another municipality's person is refused, naming the field
        r = self.post("citation-new", "webster", {**citation, "person": elsewhere.pk})
        self.assertEqual(r.status_code, 200)
        self.assertIn("person", r.context["form"].errors)
        self.assert_posted(self.post("citation-new", "webster", {**citation, "person": pat.pk}))
        self.assertEqual(Citation.objects.latest("pk").case.owner, pat)
