"""Real Chromium (Debian's package) driven by Playwright, against Django's live server."""

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session", autouse=True)
def _urlconf_imported():
    """Import the URLconf (and with it the API's schemas) before the first page is asked for: the
    live server would otherwise import it inside the first request, which on a busy machine takes
    longer than a page's 10 s timeout."""
    from django.urls import get_resolver

    assert get_resolver().url_patterns


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{request.node.name}.png", full_page=True)
    context.close()


@pytest.fixture(autouse=True)
def _cookies_without_a_date(settings):
    """The server runs at the test's instant (frozen, or DOGTAG_TEST_NOW), Chromium on the real
    clock: a cookie that expires by a date would be expired for Chromium whenever the two are more
    than its age apart. Cookies for the browser's session only have no date to disagree on."""
    settings.SESSION_EXPIRE_AT_BROWSER_CLOSE = True
    settings.CSRF_COOKIE_AGE = None
