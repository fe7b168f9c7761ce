"""Renewal reminders on a schedule (issue 30 §1): the sweep's lead times, once per license year
and lead time, email or a printed letter, withdrawn when the dog is renewed, dead, moved away or
transferred, listed on the owner's page."""

from datetime import date, timedelta

from django.core.files.storage import default_storage
from django.db import transaction
from django.test import override_settings
from django.utils import timezone
from pypdf import PdfReader

from dogtag.licensing import actions, tasks
from dogtag.licensing.models import License, ReminderLetters, RenewalReminder
from dogtag.outbox.models import Message
from dogtag.portal.actions import opt_out_of_reminders
from dogtag.registry import actions as registry
from tests.base import BaseTestCase, on, vaccinate
from tests.licensing.base import counter_ready, receive_tags


class Interrupted(Exception):
    """Raised inside a transaction to stand for a worker killed before it commits."""


class RenewalReminderTests(BaseTestCase):
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
        cls.ends = cls.license.expires_on  # the engine's end of the 2026 license year

    def day(self, lead: int) -> date:
        return self.ends + timedelta(days=lead)

    def run_on(self, day):
        with on(day), self.captureOnCommitCallbacks(execute=True):
            written = actions.sweep_renewal_reminders(day)
            return written, actions.deliver_renewal_reminders(day)

    def test_the_year_ends_where_the_engine_says(self):
        self.assertEqual(self.ends, date(2026, 12, 31))

    def test_thirty_days_before_the_email_and_the_letter_go_once(self):
        self.assertEqual(self.run_on(self.day(-31)), (0, {"emailed": 0, "printed": 0, "texted": 0, "withdrawn": 0}))
        self.assertEqual(self.run_on(self.day(-30)), (2, {"emailed": 1, "printed": 1, "texted": 0, "withdrawn": 0}))
        self.assertEqual(self.run_on(self.day(-30)), (0, {"emailed": 0, "printed": 0, "texted": 0, "withdrawn": 0}))
        self.assertEqual(self.run_on(self.day(-29)), (0, {"emailed": 0, "printed": 0, "texted": 0, "withdrawn": 0}))
        email = RenewalReminder.objects.get(animal=self.dog)
        self.assertEqual(
            (email.lead_days, email.due_on, email.license_year, email.channel, email.person),
            (-30, self.day(-30), 2026, "email", self.owner),
        )
        message = Message.objects.get(kind="renewal-reminder")
        self.assertEqual((email.message, message.to), (message, "pat@example.org"))
        self.assertIn("Rex's license runs out on December 31", message.subject)
        self.assertIn("/renew/", message.text)
        self.assertIn("/reminders/stop/", message.text)
        letter = RenewalReminder.objects.get(animal=self.tess)
        self.assertEqual((letter.channel, letter.person), ("paper", self.paper_owner))
        letters = ReminderLetters.objects.get()
        self.assertEqual((letter.letters, letters.letters), (letters, 1))
        with default_storage.open(letters.pdf, "rb") as f:
            (page,) = PdfReader(f).pages
            text = page.extract_text()
        self.assertIn("Sam Paper", text)
        self.assertIn("2027 license renewal: Tess", text)

    def test_each_lead_time_in_turn_while_unlicensed(self):
        for lead in (-30, -7, 7, 30):
            self.assertEqual(self.run_on(self.day(lead))[0], 2, lead)
        self.assertEqual(
            sorted(RenewalReminder.objects.filter(animal=self.dog).values_list("lead_days", flat=True)),
            [-30, -7, 7, 30],
        )
        self.assertEqual(Message.objects.filter(kind="renewal-reminder").count(), 4)
        self.assertEqual(self.run_on(self.day(31))[0], 0)

    def test_a_reminder_more_than_the_late_days_behind_is_not_sent(self):
        self.assertEqual(self.run_on(self.day(-30) + timedelta(days=3))[0], 2)  # the worker was down 3 days
        RenewalReminder.objects.all().delete()
        self.assertEqual(self.run_on(self.day(-30) + timedelta(days=4))[0], 0)

    @override_settings(DOGTAG_RENEWAL_REMINDER_DAYS={"": (-30, -7, 7, 30), "benton": (-14,)})
    def test_each_municipality_sets_its_own_lead_times(self):
        self.assertEqual(self.run_on(self.day(-30))[0], 0)
        self.assertEqual(self.run_on(self.day(-14))[0], 2)

    def test_renewed_dogs_get_no_more(self):
        self.run_on(self.day(-30))
        receive_tags(self, 1, 9, 2027)
        vaccinate(self.dog, self.vet, "R-2", date(2026, 6, 1), date(2029, 6, 1))
        with on(date(2026, 12, 10)):
            actions.issue_license(
                self.dog, acting_user=self.clerk, license_year=2027, payment={"method": "cash", "amount": "10.00"}
            )
        self.assertEqual(self.run_on(self.day(-7)), (1, {"emailed": 0, "printed": 1, "texted": 0, "withdrawn": 0}))
        self.assertEqual(RenewalReminder.objects.filter(animal=self.dog).count(), 1)

    def test_a_reminder_falling_due_after_the_dog_was_reported_dead_is_not_sent(self):
        self.run_on(self.day(-30))
        registry.update_animal(self.dog, acting_user=self.clerk, status="died")
        self.assertEqual(self.run_on(self.day(-7)), (1, {"emailed": 0, "printed": 1, "texted": 0, "withdrawn": 0}))
        self.assertFalse(RenewalReminder.objects.filter(animal=self.dog, lead_days=-7).exists())
        self.assertEqual(Message.objects.filter(kind="renewal-reminder").count(), 1)  # the one of day -30

    def test_a_reminder_written_before_the_death_was_reported_is_withdrawn_not_sent(self):
        with on(self.day(-30)):
            self.assertEqual(actions.sweep_renewal_reminders(self.day(-30)), 2)
        registry.update_animal(self.dog, acting_user=self.clerk, status="died")
        registry.update_animal(self.tess, acting_user=self.clerk, status="moved-away")
        self.assertEqual(self.run_on(self.day(-30)), (0, {"emailed": 0, "printed": 0, "texted": 0, "withdrawn": 2}))
        self.assertEqual(
            dict(RenewalReminder.objects.values_list("animal__name", "withdrawn_because")),
            {"Rex": "the animal is reported died", "Tess": "the animal is reported moved away"},
        )
        self.assertFalse(Message.objects.filter(kind="renewal-reminder").exists())
        self.assertFalse(ReminderLetters.objects.exists())

    def test_a_transferred_dog_is_reminded_to_its_new_owner_only(self):
        with on(self.day(-30)):
            actions.sweep_renewal_reminders(self.day(-30))
            registry.transfer_animal(self.dog, acting_user=self.clerk, to_person=self.paper_owner, on=self.day(-30))
        self.assertEqual(self.run_on(self.day(-30)), (0, {"emailed": 0, "printed": 1, "texted": 0, "withdrawn": 1}))
        self.assertEqual(
            RenewalReminder.objects.get(animal=self.dog, lead_days=-30).withdrawn_because,
            "no longer this person's animal",
        )
        self.assertEqual(self.run_on(self.day(-7))[0], 2)
        self.assertEqual(RenewalReminder.objects.get(animal=self.dog, lead_days=-7).person, self.paper_owner)

    def test_statuses_other_than_active_are_skipped(self):
        for status in ("died", "transferred", "moved-away", "missing"):
            registry.update_animal(self.dog, acting_user=self.clerk, status=status)
            with on(self.day(-30)):
                self.assertEqual(actions.sweep_renewal_reminders(self.day(-30)), 1, status)
                self.assertEqual(RenewalReminder.objects.get().animal, self.tess)
            RenewalReminder.objects.all().delete()

    def test_a_voided_license_is_not_reminded(self):
        License.objects.filter(pk=self.license.pk).update(voided_at=timezone.now())
        self.assertEqual(self.run_on(self.day(-30))[0], 1)

    def test_an_owner_who_opted_out_of_emails_gets_a_letter(self):
        opt_out_of_reminders(self.owner)
        self.assertEqual(self.run_on(self.day(-30)), (2, {"emailed": 0, "printed": 2, "texted": 0, "withdrawn": 0}))
        self.assertEqual(ReminderLetters.objects.get().letters, 2)

    def test_an_interrupted_sweep_writes_nothing_and_the_next_writes_once(self):
        with on(self.day(-30)):
            with self.assertRaises(Interrupted), transaction.atomic():
                self.assertEqual(actions.sweep_renewal_reminders(self.day(-30)), 2)
                raise Interrupted
            self.assertFalse(RenewalReminder.objects.exists())
        self.assertEqual(self.run_on(self.day(-30))[0], 2)
        self.assertEqual(self.run_on(self.day(-30))[0], 0)
        self.assertEqual(RenewalReminder.objects.count(), 2)

    @override_settings(DOGTAG_RENEWAL_REMINDER_BATCH=1)
    def test_a_delivery_interrupted_after_its_first_batch_sends_nothing_twice(self):
        with on(self.day(-30)):
            actions.sweep_renewal_reminders(self.day(-30))
            with self.assertRaises(Interrupted), transaction.atomic():
                actions.deliver_renewal_reminders(self.day(-30))  # both batches, then killed before commit
                self.assertEqual(Message.objects.filter(kind="renewal-reminder").count(), 1)
                raise Interrupted
            self.assertFalse(Message.objects.exists())
        self.assertEqual(self.run_on(self.day(-30)), (0, {"emailed": 1, "printed": 1, "texted": 0, "withdrawn": 0}))
        self.assertEqual(self.run_on(self.day(-30)), (0, {"emailed": 0, "printed": 0, "texted": 0, "withdrawn": 0}))
        self.assertEqual(Message.objects.filter(kind="renewal-reminder").count(), 1)
        self.assertEqual(ReminderLetters.objects.count(), 1)

    def test_the_daily_task_sweeps_and_delivers(self):
        with on(self.day(-7)), self.captureOnCommitCallbacks(execute=True):
            first, second = tasks.send_renewal_reminders(), tasks.send_renewal_reminders()
        self.assertEqual(first, "2 reminders owed; 1 emailed, 1 printed, 0 texted, 0 withdrawn")
        self.assertEqual(second, "0 reminders owed; 0 emailed, 0 printed, 0 texted, 0 withdrawn")

    def test_the_owner_page_lists_the_reminders(self):
        self.run_on(self.day(-30))
        registry.update_animal(self.dog, acting_user=self.clerk, status="died")
        with on(self.day(-7)):
            actions.sweep_renewal_reminders(self.day(-7))
        self.login(self.clerk)
        page = self.client.get(f"/people/{self.owner.pk}/")
        self.assertContains(page, "Renewal reminders")
        self.assertContains(page, "December 1, 2026")
        self.assertContains(page, "30 days before the license year ends")
        self.assertContains(page, "Emailed")

    def test_the_clerk_prints_the_letters_from_the_renewals_page(self):
        self.run_on(self.day(-30))
        letters = ReminderLetters.objects.get()
        self.login(self.clerk)
        page = self.client.get("/m/benton/renewals/")
        self.assertContains(page, "Renewal reminders to print")
        self.assertContains(page, f"/reminder-letters/{letters.pk}/letters.pdf")
        pdf = self.client.get(f"/reminder-letters/{letters.pk}/letters.pdf")
        self.assertEqual((pdf.status_code, pdf["Content-Type"]), (200, "application/pdf"))
