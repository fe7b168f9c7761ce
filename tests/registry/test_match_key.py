"""A person's match key (registry/names.py), what an import matches owners on: set by every
registry action that saves a person, so a roll's "PAT OWNER, 12 Main St." finds Pat Owner."""

import importlib
from types import SimpleNamespace

from django.apps import apps as django_apps
from django.db import connection
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

    def test_the_migration_fills_the_key_of_everyone_already_on_record(self):
        fill = importlib.import_module("dogtag.registry.migrations.0003_person_match_key").fill
        people = [self.owner.pk]
        people += [p.pk for p in Person.objects.bulk_create(
            Person(municipality=self.benton, name=f"Owner {i}", street=f"{i} Main Street") for i in range(12)
        )]  # fmt: skip
        Person.objects.update(match_key="")  # as the rows stood before the key was added
        fill(django_apps, SimpleNamespace(connection=connection))  # all of the schema editor it uses
        keys = dict(Person.objects.filter(pk__in=people).values_list("pk", "match_key"))
        self.assertEqual(keys[self.owner.pk], person_key("Pat Owner", self.owner.street))
        self.assertEqual(keys[people[-1]], "owner 11|11 main st")
        self.assertTrue(all(keys.values()))
