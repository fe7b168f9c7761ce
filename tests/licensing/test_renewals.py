import io
from datetime import date

from django.core import mail
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse
from django_q.models import OrmQ
from pypdf import PdfReader

from dogtag.licensing import actions
from dogtag.licensing.models import RenewalChunk, RenewalNotice, RenewalRun
from dogtag.outbox.models import Message
from dogtag.registry import actions as registry
from tests.base import BaseTestCase, audit_chain_statements, on, vaccinate
from tests.licensing.base import counter_ready
from tests.licensing.bulk import licensed_dogs


def pdf_text(name):
    with default_storage.open(name, "rb") as f:
        reader = PdfReader(f)
        return [page.extract_text() for page in reader.pages]


class RenewalTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        counter_ready(cls, 1, 9)
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
        out, _ = self.run_command()
        self.assertIn("1 notices, 1 to be emailed, printed in 1 part(s) by the worker", out)
        notice = RenewalNotice.objects.get()
        self.assertEqual((notice.animal, notice.license_year, notice.owner), (self.dog, 2027, self.owner))
        self.assertEqual((notice.sequence, notice.emailed), (1, True))
        self.assertEqual(len(mail.outbox), 1)
        self.assertIn("2027 license renewal for Rex", mail.outbox[0].subject)
        self.assertIn("$10.00, due by March 31, 2027", mail.outbox[0].body)
        self.assertIn("/renew/", mail.outbox[0].body)  # the signed link, made for the email
        self.assertIsNotNone(Message.objects.get().sent_at)
        run = RenewalRun.objects.get()
        self.assertIsNotNone(run.finished_at)
        (text,) = pdf_text(run.pdf)
        self.assertIn("Pat Owner", text)
        self.assertIn("Rex", text)
        self.assertIn("$10.00", text)
        self.assertIn("Due by: March 31, 2027", text)
        self.assertNotIn("Page 1 of", text)  # a letter of its own, not a page of the batch

    @on(date(2026, 12, 1))
    def test_a_second_run_adds_nothing(self):
        self.run_command()
        out, _ = self.run_command()
        self.assertIn("0 notices, 0 to be emailed, printed in 0 part(s)", out)
        self.assertEqual(RenewalNotice.objects.count(), 1)
        self.assertEqual(len(mail.outbox), 1)

    @on(date(2026, 12, 1))
    def test_the_clerk_runs_it_from_the_renewals_page_and_follows_the_printing(self):
        self.login(self.clerk)
        with self.captureOnCommitCallbacks(execute=True):
            r = self.client.post(reverse("renewals", args=["benton"]), follow=True)
        self.assertContains(r, "1 renewal notices for 2027; 1 to be emailed. Printing in 1 part.")
        page = self.client.get(reverse("renewals", args=["benton"]))
        self.assertContains(page, "1 of 1 part")
        self.assertNotContains(page, 'hx-trigger="every 3s"')  # nothing left to follow
        run = RenewalRun.objects.get()
        response = self.client.get(reverse("renewal-batch", args=[run.pk]))
        self.assertEqual(response["Content-Type"], "application/pdf")
        part = self.client.get(reverse("renewal-part", args=[run.chunks.get().pk]))
        self.assertEqual(part["Content-Type"], "application/pdf")
        self.assertContains(self.client.get(reverse("outbox", args=["benton"])), "2027 license renewal for Rex")

    @on(date(2026, 12, 1))
    def test_a_run_still_printing_shows_its_progress_and_refreshes_itself(self):
        licensed_dogs(self.benton, self.clerk, 5, year=2026)
        self.login(self.clerk)
        with override_settings(DOGTAG_RENEWAL_CHUNK_SIZE=2):
            run = actions.start_renewal_run(acting_user=self.clerk, municipality=self.benton, license_year=2027)
        actions.print_renewal_chunk(run.chunks.get(number=2).pk)  # the worker has printed one part of 3
        page = self.client.get(reverse("renewals", args=["benton"]))
        self.assertContains(page, "1 of 3 parts")
        self.assertContains(page, 'hx-trigger="every 3s"')
        self.assertContains(page, reverse("renewal-part", args=[run.chunks.get(number=2).pk]))
        self.assertNotContains(page, reverse("renewal-part", args=[run.chunks.get(number=1).pk]))
        self.assertEqual(self.client.get(reverse("renewal-batch", args=[run.pk])).status_code, 404)

    def test_an_unknown_municipality_is_named(self):
        from django.core.management.base import CommandError

        with self.assertRaisesMessage(CommandError, "No municipality 'atlantis'"):
            call_command("renewals", "2027", "--municipality", "atlantis", stdout=io.StringIO())


class RenewalRunAtScaleTests(BaseTestCase):
    """The notices of a run are one INSERT ... SELECT: the same queries for 3 dogs or 300."""

    def start(self, year):
        with self.captureOnCommitCallbacks(execute=False) as callbacks:
            run = actions.start_renewal_run(acting_user=self.clerk, municipality=self.benton, license_year=year)
        return run, callbacks

    @on(date(2026, 12, 1))
    def test_the_queries_do_not_grow_with_the_number_of_notices(self):
        licensed_dogs(self.benton, self.clerk, 3, year=2025)
        licensed_dogs(self.benton, self.clerk, 300, year=2026, first=1000)
        with override_settings(DOGTAG_RENEWAL_CHUNK_SIZE=1000):
            with self.assertNumQueries(9 + audit_chain_statements(1)) as small:
                few, _ = self.start(2026)
            with self.assertNumQueries(9 + audit_chain_statements(1)):
                many, _ = self.start(2027)
        self.assertEqual((few.notices_created, many.notices_created), (3, 300))
        self.assertTrue(small.captured_queries)

    @on(date(2026, 12, 1))
    def test_the_notice_goes_to_the_latest_current_owner_and_none_without_one(self):
        from dogtag.registry.models import Ownership, Person

        a, b, c, d = licensed_dogs(self.benton, self.clerk, 4, year=2026, emailed=lambda i: i != 1)
        newer = Person.objects.create(
            municipality=self.benton, name="New Owner", street="1 Oak St", city="Benton", postal_code="53803"
        )
        # a: a second current owner, begun later (and without an email); b's owner has no email;
        # c's ownership has ended; d has two begun the same day, the later recorded wins.
        Ownership.objects.create(municipality=self.benton, animal=a, person=newer, started_on=date(2026, 6, 1))
        Ownership.objects.filter(animal=c).update(ended_on=date(2026, 1, 1))
        same_day = Ownership.objects.create(
            municipality=self.benton, animal=d, person=newer, started_on=date(2020, 1, 1)
        )
        run, _ = self.start(2027)
        notices = {n: (o, e) for n, o, e in RenewalNotice.objects.values_list("animal_id", "owner_id", "emailed")}
        self.assertEqual(
            notices,
            {a.pk: (newer.pk, False), b.pk: (b.ownerships.get().person_id, False), d.pk: (same_day.person_id, False)},
        )
        self.assertEqual((run.notices_created, run.emails_queued), (3, 0))
        self.assertEqual(sorted(RenewalNotice.objects.values_list("sequence", flat=True)), [1, 2, 3])

    @on(date(2026, 12, 1))
    def test_the_notices_are_printed_in_chunks_of_bounded_size_in_name_order(self):
        licensed_dogs(self.benton, self.clerk, 5, year=2026, emailed=lambda i: i != 3)
        with override_settings(DOGTAG_RENEWAL_CHUNK_SIZE=2):
            run, callbacks = self.start(2027)
        self.assertEqual((run.notices_created, run.emails_queued, run.chunks_total), (5, 4, 3))
        self.assertEqual(list(run.chunks.values_list("first_sequence", "last_sequence")), [(1, 2), (3, 4), (5, 5)])
        self.assertEqual(len(callbacks), 1)  # the chunks' tasks, handed over together after commit
        with override_settings(DOGTAG_TASKS_INLINE=False), self.assertNumQueries(5):  # in one transaction
            callbacks[0]()
        queued = sorted((q.func(), q.task["args"], q.name()) for q in OrmQ.objects.all())
        self.assertEqual(
            queued, [(actions.RENDER_CHUNK, (c.pk,), f"renewal run {run.pk} part {c.number}") for c in run.chunks.all()]
        )
        with self.captureOnCommitCallbacks(execute=True):
            for chunk in run.chunks.all():
                self.assertIn("notices printed", actions.print_renewal_chunk(chunk.pk))
        run.refresh_from_db()
        self.assertIsNotNone(run.finished_at)
        pages = pdf_text(run.pdf)
        self.assertEqual(len(pages), 5)
        self.assertEqual([p.split("2027 license renewal: ")[1][:9] for p in pages], [f"Dog {i:05d}" for i in range(5)])
        self.assertEqual([len(pdf_text(c.pdf)) for c in run.chunks.all()], [2, 2, 1])
        self.assertEqual(Message.objects.count(), 4)
        self.assertEqual(len(mail.outbox), 4)

    @on(date(2026, 12, 1))
    def test_a_chunk_printed_again_after_a_crash_adds_nothing(self):
        licensed_dogs(self.benton, self.clerk, 3, year=2026)
        run, _ = self.start(2027)
        chunk = run.chunks.get()
        with self.captureOnCommitCallbacks(execute=True):
            actions.print_renewal_chunk(chunk.pk)
            self.assertEqual(actions.print_renewal_chunk(chunk.pk), "already printed")
        self.assertEqual(Message.objects.count(), 3)
        self.assertEqual(len(mail.outbox), 3)
        self.assertEqual(len(pdf_text(RenewalChunk.objects.get().pdf)), 3)
        self.assertEqual(actions.merge_renewal_run(run.pk), "already merged")


class RenewalOptOutTests(BaseTestCase):
    @on(date(2026, 12, 1))
    def test_an_owner_who_opted_out_gets_the_printed_notice_but_no_email(self):
        from dogtag.portal.models import ReminderOptOut

        counter_ready(self, 1, 2)
        with on(date(2026, 2, 2)):
            actions.issue_license(self.dog, acting_user=self.clerk, payment={"method": "cash", "amount": "10.00"})
        ReminderOptOut.objects.create(municipality=self.benton, person=self.owner)
        with self.captureOnCommitCallbacks(execute=True):
            call_command("renewals", "2027", "--municipality", "benton", stdout=io.StringIO(), stderr=io.StringIO())
        self.assertEqual(RenewalNotice.objects.get().emailed, False)
        self.assertEqual(len(mail.outbox), 0)
        self.assertTrue(RenewalRun.objects.get().pdf)


def test_an_animals_row_of_facts_holds_what_its_facts_model_does():
    """The renewal notices' figures read each animal as a row of facts (law.facts_row, for the
    engine's decide_rows): the same facts, field by field, as law.animal_facts gives."""
    from dogtag.licensing import law
    from dogtag.registry.models import Animal

    kinds = [
        {"species": "dog", "birth_date": date(2020, 3, 1), "altered": True},
        {"species": "dog", "birth_date": date(2021, 5, 9), "acquired_on": date(2022, 1, 4)},
        {"species": "cat", "birth_date": date(2024, 12, 31), "altered": True},
        *({"species": "dog", "birth_date": date(2019, 1, 1), "working_status": s} for s in Animal.WorkingStatus.values),
    ]
    for kind in kinds:
        animal = Animal(name="Rex", sex="male", **kind)
        for year in (None, 2027):
            row = law.facts_row(animal, year)
            assert law.facts_of_row(row) == law.animal_facts(animal, year), kind
    assert law.facts_row(Animal(name="Rex", sex="male", species="dog"), 2027) is None
    assert law.facts_row(Animal(name="Henny", sex="female", species="hen", birth_date=date(2020, 1, 1))) is None
