from datetime import date

from django.core.management import call_command

from dogtag.lib import links
from dogtag.outbox import mail
from dogtag.outbox.models import Message
from dogtag.portal.actions import send_rabies_reminders
from dogtag.portal.models import RabiesReminder, ReminderOptOut
from tests.base import BaseTestCase, on
from tests.portal.helpers import smtp_server

# Rex's only (initial) certificate R-1001, of 2025-06-01, falls due within a year: the engine says
# 2026-06-01. The reminder goes 30 days (Dogtag's lead time, not a legal number) before.


class RabiesReminderTests(BaseTestCase):
    def run_on(self, day):
        with on(day), self.captureOnCommitCallbacks(execute=True):
            return send_rabies_reminders(day)

    def test_it_reminds_once_within_the_lead_time_through_real_smtp(self):
        self.assertEqual(self.run_on(date(2026, 5, 1)), 0)  # 31 days before
        with smtp_server() as inbox:
            self.assertEqual(self.run_on(date(2026, 5, 2)), 1)
            self.assertEqual(self.run_on(date(2026, 5, 3)), 0)  # idempotent
        (message,) = inbox.to("pat@example.org")
        self.assertIn("June 1, 2026", message["Subject"])
        text = inbox.text(message)
        self.assertIn("/reminders/stop/", text)
        self.assertIsNotNone(message.get_body(preferencelist=("html",)))
        self.assertEqual(Message.objects.get(kind="rabies-reminder").sent_at is not None, True)
        self.assertEqual(RabiesReminder.objects.get().due_on, date(2026, 6, 1))

    def test_the_command_runs(self):
        with on(date(2026, 5, 10)):
            call_command("rabies_reminders", "--on", "2026-05-10", stdout=open("/dev/null", "w"))
        self.assertEqual(RabiesReminder.objects.count(), 1)

    def test_an_owner_who_opted_out_gets_none(self):
        token = links.unsubscribe_token(self.owner.pk)
        self.assertContains(self.client.get(f"/reminders/stop/{token}/"), "Stop the reminders")
        self.client.post(f"/reminders/stop/{token}/")
        self.assertTrue(ReminderOptOut.objects.filter(person=self.owner).exists())
        self.assertEqual(self.run_on(date(2026, 5, 10)), 0)
        self.assertEqual(self.client.get("/reminders/stop/forged/").status_code, 404)

    def test_a_refusing_server_leaves_the_message_queued_for_retry(self):
        with smtp_server(refuse=True) as inbox:
            self.run_on(date(2026, 5, 10))
        message = Message.objects.get(kind="rabies-reminder")
        self.assertEqual((message.sent_at, message.attempts), (None, 1))
        self.assertIn("550", message.last_error)
        self.assertEqual(inbox.messages, [])
        with smtp_server() as inbox:
            self.assertEqual(mail.send(), (1, 0))
        message.refresh_from_db()
        self.assertIsNotNone(message.sent_at)
        self.assertEqual(len(inbox.to("pat@example.org")), 1)
