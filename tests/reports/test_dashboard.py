import json
from datetime import date
from decimal import Decimal

from django.urls import reverse

from tests.base import BaseTestCase, on, text
from tests.licensing.base import benton_license


@on(date(2026, 2, 10))
class DashboardTests(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.fee, cls.license = benton_license(cls)

    def test_a_municipalitys_dashboard_has_charts_with_their_numbers_beside_them(self):
        self.login(self.clerk)
        r = self.client.get(reverse("dashboard", args=["benton"]))
        self.assertContains(r, "chart-4.6.1.umd.min.js")
        data = r.context["data"]
        self.assertEqual(data["licenses"].rows[1], ["Feb", 0, 1])
        self.assertEqual(data["revenue"].rows[1], ["Feb", Decimal("0.00"), Decimal("10.00")])
        # Encoded once: the page's JSON is the object the script reads, not a string of it.
        script = r.content.decode().split('<script id="dashboard-data" type="application/json">')[1]
        charts = json.loads(script.split("</script>")[0])
        self.assertEqual(charts["licenses"]["series"]["2026"][1], 1)
        self.assertContains(r, '<canvas id="chart-revenue"')
        self.assertContains(r, "<caption>Open cases</caption>", html=False)

    def test_the_county_dashboard_covers_every_municipality_served(self):
        self.login(self.officer)  # serves Benton and Webster
        r = self.client.get(reverse("county-dashboard"))
        self.assertEqual(r.context["report"].subtitle, "Benton, Webster")
        self.assertEqual(r.context["data"]["licenses"].totals, ["Total", 0, 1])
        self.login(self.webster_clerk)
        r = self.client.get(reverse("county-dashboard"))
        self.assertEqual(r.context["data"]["licenses"].totals, ["Total", 0, 0], "Benton's license is not Webster's")

    def test_the_dashboard_prints_as_pdf_and_downloads_as_csv(self):
        self.login(self.clerk)
        r = self.client.get(reverse("dashboard", args=["benton"]), {"format": "csv"})
        self.assertIn("Licenses issued by month", text(r))
        r = self.client.get(reverse("dashboard", args=["benton"]), {"format": "pdf"})
        self.assertTrue(r.content.startswith(b"%PDF"))
