"""Refusals a person can read: a missing or out-of-scope record, and a step the role does not allow."""

from django.test import override_settings
from django.urls import reverse

from tests.base import BaseTestCase


@override_settings(DEBUG=False)
class ErrorPageTests(BaseTestCase):
    def test_another_municipalitys_record_is_simply_not_found(self):
        self.login(self.outsider)
        r = self.client.get(reverse("animal", args=[self.dog.pk]))
        self.assertEqual(r.status_code, 404)
        self.assertContains(r, "belongs to a municipality you do not serve", status_code=404)
        self.assertContains(r, "Log out oscar", status_code=404)

    def test_a_step_the_role_does_not_allow_says_which_role_it_needs(self):
        self.login(self.vet)
        r = self.client.get(reverse("import", args=["benton"]))
        self.assertEqual(r.status_code, 403)
        self.assertContains(r, "This needs the role of", status_code=403)
