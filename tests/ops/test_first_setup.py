"""A new installation without `demo`: the first administrator (`dogtag createsuperuser`) and a
municipality from its rule pack (`dogtag add-municipality`), as the README's production section says."""

import io
import os
from unittest import mock

from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import TestCase
from django.urls import reverse

from dogtag.accounts.models import Membership, Role
from dogtag.audit.models import AuditEvent
from dogtag.registry.models import Municipality


def dogtag(*args):
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


class FirstSetupTests(TestCase):
    def setUp(self):
        with mock.patch.dict(os.environ, {"DJANGO_SUPERUSER_PASSWORD": "a long county password 2026"}):
            call_command("createsuperuser", "--noinput", username="county-it", email="it@example.gov",
                         stdout=io.StringIO())
        self.admin = get_user_model().objects.get(username="county-it")

    def test_it_adds_a_municipality_from_its_pack_with_its_administrator(self):
        out = dogtag("add-municipality", "wi-cedarburg", "--administrator", "county-it")
        self.assertIn("Added the City of Cedarburg (Ozaukee County) under wi-cedarburg as 'cedarburg'", out)
        m = Municipality.objects.get()
        self.assertEqual((m.name, m.kind, m.county, m.rule_pack, m.slug),
                         ("Cedarburg", "city", "Ozaukee", "wi-cedarburg", "cedarburg"))
        self.assertTrue(Membership.objects.filter(user=self.admin, municipality=m, role=Role.ADMINISTRATOR).exists())
        event = AuditEvent.objects.get(action="municipality.add")
        self.assertEqual((event.object_id, event.actor), (str(m.pk), None))
        self.client.force_login(self.admin)
        self.assertContains(self.client.get(reverse("municipality", args=["cedarburg"])), "Cedarburg")

    def test_a_slug_can_be_chosen_and_a_municipality_is_added_once(self):
        dogtag("add-municipality", "wi-river-hills", "--slug", "rh")
        self.assertEqual(Municipality.objects.get().slug, "rh")
        with self.assertRaisesMessage(CommandError, "rule_pack: Municipality with this Rule pack already exists."):
            dogtag("add-municipality", "wi-river-hills")

    def test_what_cannot_be_added_is_named_and_adds_nothing(self):
        with self.assertRaisesMessage(CommandError, "rule_pack: wi-nowhere.yaml"):
            dogtag("add-municipality", "wi-nowhere")
        with self.assertRaisesMessage(CommandError, "wi is not a municipality's pack"):
            dogtag("add-municipality", "wi")
        with self.assertRaisesMessage(CommandError, "--administrator nobody: no such account"):
            dogtag("add-municipality", "wi-benton", "--administrator", "nobody")
        self.assertFalse(Municipality.objects.exists())
        self.assertFalse(AuditEvent.objects.filter(action="municipality.add").exists())
