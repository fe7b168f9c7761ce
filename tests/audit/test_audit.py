from django.db import connection, transaction
from django.db.utils import DatabaseError

from dogtag.audit.models import AuditEvent
from tests.base import BaseTestCase


class AuditTrailTests(BaseTestCase):
    def test_every_action_wrote_one_event_with_the_actor(self):
        actions = list(AuditEvent.objects.filter(municipality=self.benton).values_list("action", "actor__username"))
        self.assertIn(("animal.create", "alice"), actions)
        self.assertIn(("vaccination.create", "vera"), actions)
        self.assertEqual(len(actions), 5)  # person, premises, animal, ownership, vaccination

    def test_an_event_cannot_be_changed_or_deleted_through_the_orm(self):
        event = AuditEvent.objects.first()
        event.action = "forged"
        with self.assertRaises(PermissionError):
            event.save()
        with self.assertRaises(PermissionError):
            event.delete()
        with self.assertRaises(PermissionError):
            AuditEvent.objects.all().update(action="forged")
        with self.assertRaises(PermissionError):
            AuditEvent.objects.all().delete()

    def test_the_database_refuses_to_change_an_event(self):
        with self.assertRaises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("UPDATE audit_auditevent SET action = 'forged'")
        self.assertFalse(AuditEvent.objects.filter(action="forged").exists())

    def test_no_url_edits_audit_events(self):
        from django.contrib import admin

        self.assertNotIn(AuditEvent, admin.site._registry)
