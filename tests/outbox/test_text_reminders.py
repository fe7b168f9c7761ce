"""Renewal reminders by text message (issue 30 §5): a reminder also goes as a text to an owner
with a live consent, once per license and lead time, in the owner's language with the renewal
code and the front page's address; never after a STOP reply, never without consent; listed on the
owner's page with the emails. The delivery stays set-based: its queries do not grow with the batch."""

from datetime import date, timedelta

from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from dogtag.licensing import actions
from dogtag.licensing.models import RenewalReminder
from dogtag.outbox import sender, texts
from dogtag.outbox.actions import answer_text_reply, record_text_consent
from dogtag.outbox.models import Message
from dogtag.registry import actions as registry
from dogtag.registry.models import RenewalCode
from tests.base import BaseTestCase, on, vaccinate
from tests.licensing.base import counter_ready
from tests.outbox.twilio_recorded import BENTON_TWILIO, recorded_transport
from tests.payments.support import patch_env

NONE = {"emailed": 0, "printed": 0, "texted": 0, "withdrawn": 0}


def statements(captured) -> int:
    """The statements a block ran, its transaction's savepoints left out."""
    return sum(1 for q in captured.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE")))


class Interrupted(Exception):
    """Raised inside a transaction to stand for a worker killed before it commits."""


class TextReminderTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        counter_ready(cls, 1, 9)
        cls.paper_owner = registry.create_person(
            acting_user=cls.clerk,
            municipality=cls.benton,
            name="Sam Paper",
            street="3 Oak St",
            city="Benton",
            postal_code="53803",
        )
        with on(date(2026, 2, 2)):
            cls.tess = registry.register_animal(
                acting_user=cls.clerk,
                municipality=cls.benton,
                owner=cls.paper_owner,
                name="Tess",
                sex="female",
                birth_date=date(2021, 1, 1),
            )
            vaccinate(cls.tess, cls.vet, "R-T", date(2025, 6, 1), date(2028, 6, 1))
            cls.license = actions.issue_license(
                cls.dog, acting_user=cls.clerk, payment={"method": "cash", "amount": "10.00"}
            )
            actions.issue_license(cls.tess, acting_user=cls.clerk, payment={"method": "cash", "amount": "10.00"})
        cls.ends = cls.license.expires_on

    def setUp(self):
        env = patch_env(BENTON_TWILIO)
        env.start()
        self.addCleanup(env.stop)
        self.http, self.provider = recorded_transport()
        texts.HTTP_CLIENT = self.http
        self.addCleanup(setattr, texts, "HTTP_CLIENT", None)

    def day(self, lead: int) -> date:
        return self.ends + timedelta(days=lead)

    def run_on(self, day):
        with on(day), self.captureOnCommitCallbacks(execute=False):
            written = actions.sweep_renewal_reminders(day)
            return written, actions.deliver_renewal_reminders(day)

    def consent(self, person, phone):
        with on(date(2026, 3, 1)):
            return record_text_consent(acting_user=self.clerk, person=person, phone=phone, how="signed-form")

    def texts_sent(self):
        return list(Message.objects.filter(channel=Message.Channel.TEXT, kind="renewal-reminder").order_by("pk"))

    def test_a_reminder_is_texted_once_with_the_renewal_code(self):
        self.consent(self.owner, "608-555-0142")
        self.assertEqual(self.run_on(self.day(-30)), (2, {**NONE, "emailed": 1, "printed": 1, "texted": 1}))
        self.assertEqual(self.run_on(self.day(-30)), (0, NONE))  # a rerun, or the worker restarted
        (text,) = self.texts_sent()
        code = RenewalCode.objects.get(animal=self.dog, license_year=2027).code
        self.assertEqual(text.to, "+16085550142")
        self.assertEqual(
            text.text,
            f"Village of Benton: Rex's dog license runs out on December 31. Renew for 2027 at "
            f"http://testserver/ with code {code[:4]}-{code[4:]}. Reply STOP to end texts.",
        )
        reminder = RenewalReminder.objects.get(animal=self.dog)
        self.assertEqual((reminder.text, reminder.channel, reminder.message.to), (text, "email", "pat@example.org"))
        self.assertIsNone(RenewalReminder.objects.get(animal=self.tess).text)  # no consent, no text
        with on(self.day(-30)):
            self.provider.answer("POST", "/Messages.json", "twilio_message_created", 201)
            self.assertEqual(sender.send(), (2, 0))  # the email and the text
        (sent,) = self.provider.sent
        self.assertEqual(sent["data"]["Body"], [text.text])

    def test_after_the_year_ran_out_the_text_says_so_and_each_lead_time_texts_once(self):
        self.consent(self.paper_owner, "608-555-0177")
        for lead in (-30, -7, 7):
            self.assertEqual(self.run_on(self.day(lead))[1]["texted"], 1, lead)
        self.assertEqual(len(self.texts_sent()), 3)
        self.assertIn("Tess's dog license ran out on December 31.", self.texts_sent()[-1].text)
        self.assertEqual(RenewalCode.objects.filter(animal=self.tess).count(), 1)  # the same code each time

    def test_a_text_in_the_owner_s_language(self):
        registry.update_person(self.owner, acting_user=self.clerk, language="es")
        self.consent(self.owner, "608-555-0142")
        self.run_on(self.day(-30))
        (text,) = self.texts_sent()
        with translation.override("es"):
            self.assertIn("31 de diciembre", text.text)
            self.assertIn("STOP", text.text)
            self.assertNotIn("runs out", text.text)

    def test_none_after_stop(self):
        self.consent(self.owner, "608-555-0142")
        with on(date(2026, 6, 1)), transaction.atomic():
            self.assertEqual(answer_text_reply(municipality=self.benton, phone="+16085550142", body="stop"), "stop")
        self.assertEqual(self.run_on(self.day(-30)), (2, {**NONE, "emailed": 1, "printed": 1}))
        self.assertEqual(self.texts_sent(), [])

    def test_a_stop_between_the_delivery_and_the_send_sends_nothing(self):
        self.consent(self.owner, "608-555-0142")
        self.run_on(self.day(-30))
        with on(self.day(-30)), transaction.atomic():
            answer_text_reply(municipality=self.benton, phone="+16085550142", body="STOP")
        (text,) = self.texts_sent()
        self.assertIsNotNone(text.dead_at)
        with on(self.day(-30)):
            self.assertEqual(sender.send(), (1, 0))  # the email only
        self.assertEqual(self.provider.sent, [])

    def test_none_without_consent(self):
        self.assertEqual(self.run_on(self.day(-30)), (2, {**NONE, "emailed": 1, "printed": 1}))
        self.assertEqual(self.texts_sent(), [])

    def test_a_withdrawn_reminder_is_not_texted(self):
        self.consent(self.owner, "608-555-0142")
        with on(self.day(-30)):
            actions.sweep_renewal_reminders(self.day(-30))
        registry.update_animal(self.dog, acting_user=self.clerk, status="died")
        self.assertEqual(self.run_on(self.day(-30))[1], {**NONE, "printed": 1, "withdrawn": 1})
        self.assertEqual(self.texts_sent(), [])

    def test_a_delivery_killed_before_it_commits_texts_nothing_and_the_next_texts_once(self):
        self.consent(self.owner, "608-555-0142")
        with on(self.day(-30)):
            actions.sweep_renewal_reminders(self.day(-30))
            with self.assertRaises(Interrupted), transaction.atomic():
                actions.deliver_renewal_reminders(self.day(-30))
                self.assertEqual(len(self.texts_sent()), 1)
                raise Interrupted
        self.assertEqual(self.texts_sent(), [])
        self.assertEqual(self.run_on(self.day(-30))[1]["texted"], 1)
        self.assertEqual(self.run_on(self.day(-30))[1]["texted"], 0)
        self.assertEqual(len(self.texts_sent()), 1)

    def test_the_delivery_s_queries_do_not_grow_with_the_texts(self):
        """Set-based: the same number of queries for one text as for two (and the sweep is one
        statement however many reminders it writes)."""

        def count(consents, texted):
            RenewalReminder.objects.all().delete()
            Message.objects.all().delete()
            for person, phone in consents:
                self.consent(person, phone)
            with on(self.day(-30)):
                with CaptureQueriesContext(connection) as swept:
                    self.assertEqual(actions.sweep_renewal_reminders(self.day(-30)), 2)
                with CaptureQueriesContext(connection) as delivered, self.captureOnCommitCallbacks():
                    self.assertEqual(actions.deliver_renewal_reminders(self.day(-30))["texted"], texted)
            return statements(swept), statements(delivered)

        one = count([(self.owner, "608-555-0142")], 1)
        both = count([(self.paper_owner, "608-555-0177")], 2)  # the owner's consent is still live
        self.assertEqual(one[0], 2)  # the municipalities, and the INSERT ... SELECT
        self.assertEqual(one, both)

    def test_the_owner_page_lists_the_text_with_the_email(self):
        self.consent(self.owner, "608-555-0142")
        self.run_on(self.day(-30))
        self.login(self.clerk)
        page = self.client.get(f"/people/{self.owner.pk}/")
        self.assertContains(page, "Emailed")
        self.assertContains(page, "Texted to +16085550142: queued")
        self.assertContains(page, "Consent to text messages")
        self.assertContains(page, "Signed form")
