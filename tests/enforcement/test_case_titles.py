"""Case titles stored before the date sweep held ISO dates; a data migration writes them as on
screen (March 11, 2026) — the same day, so nothing is lost — and leaves other text alone."""

import importlib
from datetime import date

from django.apps import apps
from django.urls import reverse

from dogtag.enforcement.actions.cases import open_case
from dogtag.enforcement.models import Case
from tests.base import BaseTestCase, on

migration = importlib.import_module("dogtag.enforcement.migrations.0009_case_titles_dates_as_on_screen")


@on(date(2026, 3, 12))
class StoredCaseTitleTests(BaseTestCase):
    def test_iso_dates_in_stored_titles_are_written_as_on_screen(self):
        self.login(self.officer)
        old = {
            "Bite by Rex on 2026-03-11": "Bite by Rex on March 11, 2026",
            "Impounded 2025-12-01: Rex, 2026-01-02": "Impounded December 1, 2025: Rex, January 2, 2026",
            "Rex exposed to a rabid animal on March 4, 2026": "Rex exposed to a rabid animal on March 4, 2026",
            "§ 115-2: lot 2026-13-45 (not a day)": "§ 115-2: lot 2026-13-45 (not a day)",
            "Parcel 12026-03-111": "Parcel 12026-03-111",  # digits inside a longer number
        }
        cases = {title: open_case(acting_user=self.officer, municipality=self.benton, kind=Case.Kind.BITE, title=title)
                 for title in old}  # fmt: skip
        migration.rewrite_titles(apps, None)
        for title, case in cases.items():
            case.refresh_from_db()
            self.assertEqual(case.title, old[title])
        page = self.client.get(reverse("case", args=[cases["Bite by Rex on 2026-03-11"].pk]))
        self.assertContains(page, "Bite by Rex on March 11, 2026")
        self.assertNotContains(page, "2026-03-11<")
        migration.rewrite_titles(apps, None)  # run again: nothing changes
        self.assertEqual(
            Case.objects.get(pk=cases["Bite by Rex on 2026-03-11"].pk).title, old["Bite by Rex on 2026-03-11"]
        )
