"""Text messages, the outbox's second channel (issue 30 §5): consent recorded, sent through the
official `twilio` SDK (its HTTP transport answered from recorded responses), claimed and retried
like email, and a STOP reply (a webhook signed as Twilio signs it) ends texts to that number."""

import logging
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.test import override_settings
from django.utils import timezone
from twilio.request_validator import RequestValidator

from dogtag.audit.models import AuditEvent
from dogtag.lib.links import absolute
from dogtag.outbox import actions, sender, texts
from dogtag.outbox.models import Message, TextConsent
from tests.base import BaseTestCase
from tests.outbox.twilio_recorded import BENTON_TWILIO, recorded_transport
from tests.payments.support import patch_env

INBOUND = "/texts/benton/inbound/"


@override_settings(DOGTAG_TEXT_BACKEND="twilio")
class TextMessageTests(BaseTestCase):
    def setUp(self):
        env = patch_env(BENTON_TWILIO)
        env.start()
        self.addCleanup(env.stop)
        self.http, self.provider = recorded_transport()
        texts.HTTP_CLIENT = self.http
        self.addCleanup(setattr, texts, "HTTP_CLIENT", None)

    def consent(self, phone="608-555-0142"):
        return actions.record_text_consent(acting_user=self.clerk, person=self.owner, phone=phone, how="signed-form")

    def queue(self, body="Rex's license runs out on December 31."):
        with self.captureOnCommitCallbacks(execute=False):
            return actions.queue_text(municipality=self.benton, person=self.owner, body=body, kind="renewal-reminder")

    def reply(self, body, phone="+16085550142", token="benton-auth-token"):
        params = {"From": phone, "To": "+16085550199", "Body": body, "MessageSid": "SMinbound"}
        signature = RequestValidator(token).compute_signature(absolute(INBOUND), params)
        return self.client.post(INBOUND, params, headers={"X-Twilio-Signature": signature})

    def test_consent_is_recorded_with_when_how_and_who(self):
        consent = self.consent()
        self.assertEqual(
            (consent.phone, consent.how, consent.recorded_by, consent.person),
            ("+16085550142", "signed-form", self.clerk, self.owner),
        )
        self.assertIsNotNone(consent.consented_at)
        self.assertTrue(AuditEvent.objects.filter(action="texts.consent").exists())
        with self.assertRaisesMessage(ValidationError, "already has consent"):
            self.consent("(608) 555-0142")
        with self.assertRaisesMessage(ValidationError, "Enter a telephone number"):
            self.consent("555")
        with self.assertRaisesMessage(ValidationError, "Say how the person consented"):
            actions.record_text_consent(acting_user=self.clerk, person=self.owner, phone="6085550143", how="guessed")

    def test_no_consent_no_text(self):
        self.assertIsNone(self.queue())
        self.assertFalse(Message.objects.exists())

    def test_a_text_goes_through_the_sdk(self):
        self.consent()
        message = self.queue()
        self.provider.answer("POST", "/Messages.json", "twilio_message_created", 201)
        self.assertEqual(sender.send(), (1, 0))
        (sent,) = self.provider.sent
        self.assertEqual(sent["path"], "/2010-04-01/Accounts/ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX/Messages.json")
        self.assertEqual(
            (sent["data"]["To"], sent["data"]["From"], sent["data"]["Body"]),
            (["+16085550142"], ["+16085550199"], ["Rex's license runs out on December 31."]),
        )
        self.assertTrue(sent["authorization"].startswith("Basic "))
        message.refresh_from_db()
        self.assertEqual((message.channel, message.attempts, message.last_error), ("text", 1, ""))
        self.assertIsNotNone(message.sent_at)

    def test_a_refusal_is_retried_later_like_email(self):
        self.consent()
        message = self.queue()
        self.provider.answer("POST", "/Messages.json", "twilio_error_internal", 500)
        self.assertEqual(sender.send(), (0, 1))
        message.refresh_from_db()
        self.assertEqual((message.sent_at, message.attempts, message.dead_at), (None, 1, None))
        self.assertIn("An internal server error has occurred", message.last_error)
        self.assertGreater(message.next_attempt_at, timezone.now())
        self.assertEqual(sender.send(), (0, 0))  # not due yet
        Message.objects.filter(pk=message.pk).update(next_attempt_at=timezone.now() - timedelta(seconds=1))
        self.provider.answer("POST", "/Messages.json", "twilio_message_created", 201)
        self.assertEqual(sender.send(), (1, 0))

    def test_a_stop_reply_ends_texts_to_that_number(self):
        self.consent()
        waiting = self.queue()
        response = self.reply("Stop")
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response["Content-Type"], "application/xml")
        consent = TextConsent.objects.get()
        self.assertEqual(consent.stopped_how, "replied STOP")
        self.assertIsNotNone(consent.stopped_at)
        waiting.refresh_from_db()
        self.assertIsNotNone(waiting.dead_at)
        self.assertEqual(sender.send(), (0, 0))
        self.assertEqual(self.provider.sent, [])
        self.assertIsNone(self.queue())
        self.assertTrue(AuditEvent.objects.filter(action="texts.stop").exists())

    def test_a_text_queued_before_the_stop_is_not_sent_after_it(self):
        consent = self.consent()
        message = self.queue()
        TextConsent.objects.filter(pk=consent.pk).update(stopped_at=timezone.now())  # the STOP landed meanwhile
        self.assertEqual(sender.send(), (0, 1))
        message.refresh_from_db()
        self.assertIsNotNone(message.dead_at)
        self.assertEqual(self.provider.sent, [])

    def test_the_carrier_s_own_stop_is_a_dead_letter_at_once(self):
        self.consent()
        message = self.queue()
        self.provider.answer("POST", "/Messages.json", "twilio_error_unsubscribed", 400)
        self.assertEqual(sender.send(), (0, 1))
        message.refresh_from_db()
        self.assertIsNotNone(message.dead_at)
        self.assertIn("21610", message.last_error)

    def test_unstop_renews_consent_and_help_answers(self):
        self.consent()
        self.reply("STOP")
        self.reply("unstop")
        live = TextConsent.objects.get(stopped_at=None)
        self.assertEqual((live.how, live.person, live.recorded_by), ("text-reply", self.owner, None))
        self.assertIsNotNone(self.queue())
        response = self.reply("HELP")
        self.assertContains(response, "Reply STOP to end these texts.")
        self.assertEqual(TextConsent.objects.count(), 2)

    def test_a_reply_not_signed_with_the_municipality_s_token_changes_nothing(self):
        self.consent()
        self.assertEqual(self.reply("STOP", token="someone-else").status_code, 403)
        self.assertEqual(self.client.post(INBOUND, {"From": "+16085550142", "Body": "STOP"}).status_code, 403)
        self.assertFalse(TextConsent.objects.exclude(stopped_at=None).exists())
        self.assertEqual(self.client.post("/texts/webster/inbound/", {"Body": "STOP"}).status_code, 404)
        self.assertEqual(self.client.get(INBOUND).status_code, 405)

    @override_settings(DOGTAG_TEXT_BACKEND="console")
    def test_the_console_backend_writes_the_text_to_the_log(self):
        self.consent()
        self.queue("Hello from the clerk.")
        with self.assertLogs("dogtag.outbox.texts", logging.INFO) as logged:
            self.assertEqual(sender.send(), (1, 0))
        self.assertIn("Hello from the clerk.", logged.output[0])
        self.assertEqual(self.provider.sent, [])
