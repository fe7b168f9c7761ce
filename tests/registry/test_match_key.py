"""A person's match key (registry/names.py), what an import matches owners on: set by every
registry action that saves a person, so a roll's "PAT OWNER, 12 Main St." finds Pat Owner."""

from django.test import SimpleTestCase

from dogtag.registry import actions
from dogtag.registry.models import Person
from dogtag.registry.names import person_key
from tests.base import BaseTestCase


class PersonKeyTests(SimpleTestCase):
    def test_case_punctuation_spacing_and_street_words_aside(self):
        self.assertEqual(person_key("PAT  OWNER", "12 Main St."), person_key("Pat Owner", "12 main street"))
        self.assertEqual(person_key("Gus Gray", "2 Birch Court"), "gus gray|2 birch ct")
        self.assertNotEqual(person_key("Pat Owner", "12 Main St"), person_key("Pat Owner", "12 Maine St"))
        self.assertNotEqual(person_key("Ann", "Arbor 5 Elm"), person_key("Ann Arbor", "5 Elm"), "name and street apart")


class PersonMatchKeyTests(BaseTestCase):
    def test_the_actions_keep_the_key_true_to_the_name_and_street(self):
        self.assertEqual(Person.objects.get(pk=self.owner.pk).match_key, person_key("Pat Owner", self.owner.street))
        person = actions.create_person(
            acting_user=self.clerk, municipality=self.benton, name="Cy Young", street="9 Oak Avenue",
            city="Benton", postal_code="53803",
        )  # fmt: skip
        self.assertEqual(Person.objects.get(pk=person.pk).match_key, "cy young|9 oak ave")
        actions.update_person(person, acting_user=self.clerk, street="10 Oak Avenue")
        self.assertEqual(Person.objects.get(pk=person.pk).match_key, "cy young|10 oak ave")
