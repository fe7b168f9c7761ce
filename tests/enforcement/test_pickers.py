"""Pickers that scale in the officer's forms: every animal field of a new case (bite,
complaint, impoundment, exposure, declaration, declared elsewhere, citation) and of a step
(identify the biting animal) is a type-ahead search of the municipality's animals, never a list
of every animal on record, and the page's queries do not grow with the register."""

from datetime import date

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dogtag.enforcement.models import Case
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
