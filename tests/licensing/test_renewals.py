import io
from datetime import date

from django.core import mail
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from dogtag.licensing import actions
from dogtag.licensing.models import RenewalNotice, RenewalRun
from dogtag.outbox.models import Message
from dogtag.registry import actions as registry
from tests.base import BaseTestCase, on, vaccinate
from tests.licensing.base import BENTON_FEES, set_fees


class RenewalTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        set_fees(cls.clerk, cls.benton, BENTON_FEES)
        actions.receive_tag_lot(
            acting_user=cls.clerk,
            municipality=cls.benton,
            license_year=2026,
            first_serial=1,
            last_serial=9,
            received_on=date(2026, 1, 2),
        )
        with on(date(2026, 2, 2)):
            actions.issue_license(cls.dog, acting_user=cls.clerk, payment={"method": "cash", "amount": "10.00"})
            cls.gone = registry.register_animal(
                acting_user=cls.clerk,
                municipality=cls.benton,
                owner=cls.owner,
                name="Gone",
                sex="male",
                birth_date=date(2020, 1, 1),
            )
            vaccinate(cls.gone, cls.vet, "R-G", date(2025, 6, 1), date(2028, 6, 1))
            actions.issue_license(cls.gone, acting_user=cls.clerk, payment={"method": "cash", "amount": "10.00"})
        registry.update_animal(cls.gone, acting_user=cls.clerk, status="died")

    def run_command(self):
        out, err = io.StringIO(), io.StringIO()
        with self.captureOnCommitCallbacks(execute=True):
            call_command("renewals", "2027", "--municipality", "benton", stdout=out, stderr=err)
        return out.getvalue(), err.getvalue()

    @on(date(2026, 12, 1))
    def test_it_creates_a_notice_for_each_active_animal_licensed_last_year(self):
        out, err = self.run_command()
        self.assertIn("1 notices, 1 emails queued", out)
        self.assertIn("[##############################] 1/1", err)
        notice = RenewalNotice.objects.get()
        self.assertEqual((notice.animal, notice.license_year, notice.owner), (self.dog, 2027, self.owner))
        self.assertEqual(len(mail.outbox), 1)
        self.assertIn("2027 license renewal for Rex", mail.outbox[0].subject)
        self.assertIn("$10.00, due by March 31, 2027", mail.outbox[0].body)
        self.assertIsNotNone(Message.objects.get().sent_at)
        text = PdfReader(default_storage.open(RenewalRun.objects.get().pdf)).pages[0].extract_text()
        self.assertIn("Pat Owner", text)
        self.assertIn("Rex", text)

    @on(date(2026, 12, 1))
    def test_a_second_run_adds_nothing(self):
        self.run_command()
        out, _ = self.run_command()
        self.assertIn("0 notices, 0 emails queued", out)
        self.assertEqual(RenewalNotice.objects.count(), 1)
        self.assertEqual(len(mail.outbox), 1)

    @on(date(2026, 12, 1))
    def test_the_clerk_runs_it_from_the_renewals_page_and_reads_the_outbox(self):
        self.login(self.clerk)
        with self.captureOnCommitCallbacks(execute=True):
            r = self.client.post(reverse("renewals", args=["benton"]), follow=True)
        self.assertContains(r, "1 renewal notices for 2027; 1 emailed.")
        run = RenewalRun.objects.get()
        self.assertEqual(self.client.get(reverse("renewal-batch", args=[run.pk]))["Content-Type"], "application/pdf")
        self.assertContains(self.client.get(reverse("outbox", args=["benton"])), "2027 license renewal for Rex")

    def test_an_unknown_municipality_is_named(self):
        from django.core.management.base import CommandError

        with self.assertRaisesMessage(CommandError, "No municipality 'atlantis'"):
            call_command("renewals", "2027", "--municipality", "atlantis", stdout=io.StringIO())


class RenewalOptOutTests(BaseTestCase):
    @on(date(2026, 12, 1))
    def test_an_owner_who_opted_out_gets_the_printed_notice_but_no_email(self):
        from dogtag.portal.models import ReminderOptOut

        set_fees(self.clerk, self.benton, BENTON_FEES)
        actions.receive_tag_lot(
            acting_user=self.clerk,
            municipality=self.benton,
            license_year=2026,
            first_serial=1,
            last_serial=2,
            received_on=date(2026, 1, 2),
        )
        with on(date(2026, 2, 2)):
            actions.issue_license(self.dog, acting_user=self.clerk, payment={"method": "cash", "amount": "10.00"})
        ReminderOptOut.objects.create(municipality=self.benton, person=self.owner)
        with self.captureOnCommitCallbacks(execute=True):
            call_command("renewals", "2027", "--municipality", "benton", stdout=io.StringIO(), stderr=io.StringIO())
        self.assertEqual(RenewalNotice.objects.get().emailed, False)
        self.assertEqual(len(mail.outbox), 0)
        self.assertTrue(RenewalRun.objects.get().pdf)
