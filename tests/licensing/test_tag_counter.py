"""The next tag comes from the year's counter: the first in stock after the last one handed out,
found from the stock's index at that serial however many tags the year has issued; a tag picked
out of turn or a lot received below the ones in use is not lost."""

from datetime import date

from django.db import connection, transaction

from dogtag.licensing.actions.tags import move_counter_to, take_tag
from dogtag.licensing.models import Tag, TagCounter
from tests.base import BaseTestCase, on
from tests.licensing.base import receive_tags
from tests.licensing.test_plans import scans


@on(date(2026, 5, 20))
class TagCounterTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        receive_tags(cls, 300, 309)

    def take(self, serial=None):
        with transaction.atomic():
            return self.take_in(serial).serial

    def take_in(self, serial=None):
        tag = take_tag(self.benton, 2026, serial)
        if serial is None:
            move_counter_to(tag)
        return tag

    def counter(self):
        return TagCounter.objects.get(municipality=self.benton, license_year=2026).last_serial

    def test_tags_are_handed_out_in_turn_and_the_counter_follows(self):
        self.assertEqual([self.take(), self.take(), self.take()], [300, 301, 302])
        self.assertEqual(self.counter(), 302)

    def test_a_tag_picked_by_serial_is_passed_over_in_turn(self):
        self.assertEqual(self.take(301), 301)
        self.assertEqual([self.take(), self.take()], [300, 302])

    def test_a_tag_below_the_counter_is_handed_out_once_none_is_left_above(self):
        self.take()
        receive_tags(self, 100, 100)  # received after the counter passed its serials
        self.assertEqual([self.take() for _ in range(9)], list(range(301, 310)))
        self.assertEqual((self.take(), self.counter()), (100, 100))

    def test_a_tag_numbered_zero_is_handed_out_too(self):
        receive_tags(self, 0, 0, year=2027)
        with transaction.atomic():
            self.assertEqual(take_tag(self.benton, 2027).serial, 0)

    def test_a_claim_rolled_back_leaves_the_tag_and_the_counter_as_they_were(self):
        self.take()
        try:
            with transaction.atomic():
                self.assertEqual(self.take_in().serial, 301)
                raise RuntimeError("the issue failed after the tag was taken")
        except RuntimeError:
            pass
        self.assertEqual(self.counter(), 300)
        self.assertEqual(self.take(), 301)

    def test_on_postgresql_the_next_tag_is_read_from_the_index_after_the_counter(self):
        if connection.vendor != "postgresql":
            self.skipTest("PostgreSQL's plans")
        tags = Tag.objects.filter(municipality=self.benton, license_year=2026)
        Tag.objects.bulk_create(
            Tag(municipality=self.benton, lot=tags[0].lot, license_year=2026, serial=1000 + n) for n in range(3000)
        )
        tags.filter(serial__lt=3000).update(status=Tag.Status.ISSUED)  # the old entries stay in the index
        self.take()
        with connection.cursor() as cursor:
            # The table's statistics as this test's tags leave them: earlier tests in the same
            # database can leave it looking empty, when a scan of the municipality's index costs nothing.
            cursor.execute("ANALYZE licensing_tag")
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(
                "EXPLAIN (FORMAT JSON, ANALYZE) SELECT id FROM licensing_tag WHERE municipality_id = %s "
                "AND license_year = 2026 AND status = 'in-stock' AND serial > %s ORDER BY serial LIMIT 1",
                [self.benton.pk, self.counter()],
            )
            plan = cursor.fetchone()[0][0]["Plan"]
        (read,) = scans(plan)
        self.assertIn("serial > ", read["Index Cond"])
        self.assertEqual(read["Actual Rows"], 1)
