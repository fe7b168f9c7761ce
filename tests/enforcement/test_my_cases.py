"""The officer's open cases across municipalities, overdue first, and the same deadlines as an
iCalendar feed behind a secret URL."""

from datetime import date
from unittest.mock import patch

from django.urls import reverse

from dogtag.audit.models import AuditEvent
from dogtag.enforcement import actions, views
from dogtag.enforcement.models import CalendarKey
from tests.base import on, text
from tests.enforcement.helpers import EnforcementTestCase


class MyCasesTests(EnforcementTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        _, _, cls.w_dog = cls.owner_and_dog("webster", "Wanderer", vaccinated_on=date(2025, 5, 1))
        _, _, cls.c_dog = cls.owner_and_dog("cedarburg", "Nipper", vaccinated_on=date(2025, 5, 1))
        with on(date(2026, 3, 2)):
            imp = actions.impound(
                acting_user=cls.chief,
                municipality=cls.places["webster"],
                animal=cls.w_dog,
                description="",
                found_at="Main St",
                reason="at-large",
                held_at="shelter",
                officer_saw_or_heard=True,
            )
        with on(date(2026, 3, 3)):  # a notice is recorded the day it is given
            actions.give_impound_notice(imp, acting_user=cls.chief, notice_method="mail", notice_on=date(2026, 3, 3))
        with on(date(2026, 3, 12)):
            bite = actions.report_bite(
                acting_user=cls.chief,
                municipality=cls.places["cedarburg"],
                animal=cls.c_dog,
                victim_name="Vic",
                bitten_on=date(2026, 3, 12),
                place="park",
            )
            actions.order_bite_quarantine(
                bite, acting_user=cls.chief, place="veterinarian_within_city", facility="Cedarburg Animal Hospital"
            )
            closed = actions.impound(
                acting_user=cls.chief,
                municipality=cls.places["webster"],
                animal=cls.w_dog,
                description="",
                found_at="Oak St",
                reason="at-large",
                held_at="shelter",
                officer_saw_or_heard=True,
            )
            actions.close_case(closed.case, acting_user=cls.chief, reason="owner took the dog at the scene")
        cls.impoundment, cls.bite = imp, bite

    def test_it_lists_open_cases_across_municipalities_overdue_first(self):
        self.login(self.chief)
        with on(date(2026, 3, 12)):
            r = self.client.get(reverse("my-cases"))
            rows = list(r.context["cases"].page.object_list)
            self.assertEqual(rows, [self.impoundment.case, self.bite.case])
            # Webster § 98-7: the claim period ended March 10 -> overdue on March 12
            self.assertEqual(rows[0].pending[0].due_on, date(2026, 3, 10))
            self.assertTrue(rows[0].pending[0].overdue)
            self.assertEqual(rows[1].pending[0].key, "examination.first")
            body = r.content.decode()
            self.assertIn("overdue", body)
            self.assertIn("Webster", body)
            self.assertIn("Cedarburg", body)
            self.assertIn("§ 98-7", body)
            for row in rows:  # each row's own law, quoted under its "why?"
                for cite in row.pending[0].citations:
                    self.assertIn(f"<b>{cite['section']}</b>", body)
            self.assertNotIn("Oak St", body)
        self.login(self.clerk)  # Benton only
        self.assertEqual(list(self.client.get(reverse("my-cases")).context["cases"].page.object_list), [])

    def test_it_pages_a_long_list_and_exports_it_whole(self):
        self.login(self.chief)
        with on(date(2026, 3, 12)), patch.object(views, "MY_CASES_PAGE", 1):
            first = self.client.get(reverse("my-cases"))
            self.assertEqual(list(first.context["cases"].page.object_list), [self.impoundment.case])
            self.assertContains(first, "Page 1 of 2")
            second = self.client.get(reverse("my-cases"), {"page": 2})
            self.assertEqual(list(second.context["cases"].page.object_list), [self.bite.case])
            exported = text(self.client.get(reverse("my-cases"), {"format": "csv"}))
            self.assertIn(f"#{self.impoundment.case.pk}", exported)
            self.assertIn(f"#{self.bite.case.pk}", exported)

    def test_a_page_is_a_fixed_number_of_statements_whatever_the_number_of_cases(self):
        self.login(self.chief)
        with on(date(2026, 3, 12)):
            self.client.get(reverse("my-cases"))
            # The session, its user, second factor and memberships; the count of open cases; the
            # calendar address; the menu; a page of cases with their next deadline; their deadlines.
            with self.assertNumQueries(9):
                two = self.client.get(reverse("my-cases"))
            self.bite.case.pk = None  # one more open case
            self.bite.case.save()
            with self.assertNumQueries(9):
                three = self.client.get(reverse("my-cases"))
        self.assertEqual(len(three.context["cases"].page.object_list), len(two.context["cases"].page.object_list) + 1)

    def test_viewing_the_page_makes_no_calendar_address(self):
        self.login(self.chief)
        events = AuditEvent.objects.count()
        page = self.client.get(reverse("my-cases"))
        self.assertIsNone(page.context["feed_url"])
        self.assertContains(page, "Make my calendar address")
        self.assertFalse(CalendarKey.objects.exists())
        self.assertEqual(AuditEvent.objects.count(), events)

    def test_it_serves_the_deadlines_as_icalendar_behind_a_secret_url(self):
        self.login(self.chief)
        url = self.client.post(reverse("calendar-reset")).context["feed_url"]
        self.client.logout()
        r = self.client.get(url)
        self.assertEqual(r["Content-Type"], "text/calendar; charset=utf-8")
        ics = r.content.decode()
        self.assertTrue(ics.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        self.assertTrue(ics.endswith("END:VCALENDAR\r\n"))
        self.assertIn("DTSTART;VALUE=DATE:20260310\r\n", ics)
        # The 24-hour delivery deadline is a moment: noon + 24 h in Chicago is 17:00 UTC the next day.
        self.assertIn("DTSTART:20260313T170000Z\r\n", ics)
        unfolded = ics.replace("\r\n ", "")
        self.assertIn("§ 98-7: If within seven days after such notice the owner does not claim such animal", unfolded)
        self.assertEqual(ics.count("BEGIN:VEVENT"), 7)  # claim-by; delivery, 3 examinations, observation, confinement
        self.assertTrue(all(len(line.encode()) <= 75 for line in ics.split("\r\n")))
        self.assertEqual(self.client.get(url.replace(url[-10:-4], "000000")).status_code, 404)
        self.login(self.chief)
        self.client.post(reverse("calendar-reset"))
        self.client.logout()
        self.assertEqual(self.client.get(url).status_code, 404)
