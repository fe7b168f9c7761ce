from django.db import connection, transaction
from django.db.utils import DatabaseError

from dogtag.audit.models import AuditEvent
from dogtag.registry import actions
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


class ReadableHistoryTests(BaseTestCase):
    def test_the_history_names_fields_choices_and_records_as_the_clerk_knows_them(self):
        other = actions.create_premises(
            acting_user=self.clerk, municipality=self.benton, street="3 Oak St", use="duplex"
        )
        actions.update_animal(
            self.dog, acting_user=self.clerk, sex="unknown", premises=other, altered=True, altered_evidence="Dr. Vet"
        )
        event = AuditEvent.objects.filter(action="animal.update").latest("pk")
        self.assertEqual(
            event.changes(),
            [
                ("sex", "Male", "Unknown"),
                ("spayed or neutered", "no", "yes"),
                ("evidence of spaying or neutering", "—", "Dr. Vet"),
                ("premises", str(self.premises), str(other)),
            ],
        )
        self.login(self.clerk)
        page = self.client.get(f"/animals/{self.dog.pk}/").content.decode()
        self.assertIn("<b>spayed or neutered</b>: no → yes", page)
        self.assertIn("3 Oak St", page)


class TruncateTests(BaseTestCase):
    def test_postgresql_refuses_to_truncate_the_audit_trail(self):
        if connection.vendor != "postgresql":
            self.skipTest("TRUNCATE is PostgreSQL's; SQLite has no such statement")
        events = AuditEvent.objects.count()
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the fixtures' checks, due before a TRUNCATE
            cursor.execute("RESET dogtag.allow_audit_truncate")  # as the app's own connections are
            try:
                with self.assertRaisesMessage(DatabaseError, "TRUNCATE refused"), transaction.atomic():
                    cursor.execute("TRUNCATE audit_auditevent CASCADE")
            finally:
                cursor.execute("SET dogtag.allow_audit_truncate = 'on'")
        self.assertEqual(AuditEvent.objects.count(), events)
