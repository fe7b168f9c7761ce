"""The dashboard's charts really draw in Chromium: each canvas gets a Chart.js chart with the
numbers of the table beside it, and the page throws nothing."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_portal import benton_dog
from tests.browser.test_registry import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_dashboards_charts_draw_the_numbers_of_its_tables(page, live_server):
    benton_dog()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    log_in(page, live_server, "benton-clerk")
    page.goto(f"{live_server.url}/m/benton/dashboard/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Dashboard")
    page.wait_for_load_state("load")
    assert errors == []
    page.wait_for_function("() => window.Chart && Object.keys(Chart.instances).length === 3")
    drawn = page.evaluate(
        """() => Object.values(Chart.instances).map(c => ({
            id: c.canvas.id, labels: c.data.labels.length, datasets: c.data.datasets.length,
            height: c.height}))"""
    )
    assert sorted(d["id"] for d in drawn) == ["chart-cases", "chart-licenses", "chart-revenue"]
    for chart in drawn:
        assert chart["datasets"] == 2 and chart["labels"] > 0 and chart["height"] > 0, chart
