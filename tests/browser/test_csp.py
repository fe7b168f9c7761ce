"""The pages work under the Content-Security-Policy in a real browser: htmx and the vendored
Chart.js load and run, and the browser reports no violation."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.test_registry import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_dashboard_draws_its_charts_and_search_runs_with_no_policy_violation(page, live_server):
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    call_command("demo", stdout=io.StringIO())
    log_in(page, live_server, "benton-clerk")
    page.goto(f"{live_server.url}/m/benton/dashboard/")
    expect(page.locator("#chart-licenses")).to_be_visible()
    page.wait_for_function("() => window.Chart && Object.keys(Chart.instances).length === 3")
    # htmx: the search box asks the server as one types.
    page.get_by_role("search").get_by_role("searchbox").fill("Rex")
    page.wait_for_function("() => location.pathname === '/search/'")
    assert violations == []


def test_the_api_docs_draw_from_dogtags_own_static_files_with_no_policy_violation(page, live_server):
    """Issue 27 §9: Swagger UI from django-ninja's vendored static files, under the policy."""
    page.set_default_navigation_timeout(30_000)  # the first page of a fresh server on a busy machine
    page.set_default_timeout(30_000)  # Swagger UI's bundle is 1.5 MB of script to run
    violations, hosts = [], set()
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("request", lambda r: hosts.add(r.url.split("/")[2]))
    call_command("demo", stdout=io.StringIO())
    log_in(page, live_server, "benton-clerk")
    page.goto(f"{live_server.url}/api/v1/docs")
    # Swagger UI fetches the OpenAPI document (built on first request) before it draws.
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Dogtag", timeout=90_000)
    expect(page.locator(".opblock").first).to_be_visible()
    assert violations == []
    assert hosts == {live_server.url.split("/")[2]}, hosts
