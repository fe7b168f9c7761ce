"""Real Chromium (Debian's package) driven by Playwright, against Django's live server."""

import shutil
import warnings
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from tests.browser.accessibility import WATCH, axe_violations, describe

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
def _pictures(request):
    """The date-proof run (bin/test-days, --at) takes no screenshots: no assertion reads them, and
    the suite itself takes them all (issue 27 §11: the date-proof job well under ten minutes).
    Otherwise a picture Chromium fails to capture ("Unable to capture screenshot", seen on a loaded
    machine) is taken once more after the page's load state, and at worst left out with a warning:
    a picture documents a page, it is not what a test checks."""
    from playwright.sync_api import Page

    screenshot = Page.screenshot

    def taken(self, **kwargs):
        for _ in range(2):
            try:
                return screenshot(self, **kwargs)
            except PlaywrightError as e:
                if "Unable to capture screenshot" not in str(e):
                    raise
                self.wait_for_load_state()
        warnings.warn(f"Chromium could not capture {kwargs.get('path')}", stacklevel=2)
        return b""

    Page.screenshot = (lambda self, **kwargs: b"") if request.config.getoption("at") else taken
    yield
    Page.screenshot = screenshot


@pytest.fixture(scope="session", autouse=True)
def _urlconf_imported():
    """Import the URLconf (and with it the API's schemas) before the first page is asked for: the
    live server would otherwise import it inside the first request, which on a busy machine takes
    longer than a page's 10 s timeout."""
    from django.urls import get_resolver

    assert get_resolver().url_patterns


# Pages Dogtag does not draw: django-ninja's Swagger UI (its own template and assets).
NOT_OURS = {"/api/v1/docs"}


class AxeWatch:
    """axe-core on every page state a test's pages reach: each document once it has loaded, each
    htmx swap, and the last state at the test's end. Violations are kept by page and fail the
    test at its end, so a new test is checked without asking for it."""

    def __init__(self):
        self.found: dict[str, str] = {}
        self.checked: list[str] = []

    def report(self, source, url, violations):
        if not url.startswith("http") or urlsplit(url).path in NOT_OURS:
            return
        self.checked.append(url)
        if violations:
            self.found.setdefault(url, describe(url, violations))

    def watch(self, context):
        context.expose_binding("__axeReport", self.report)
        context.add_init_script(WATCH)

    def check(self, page):
        """The page as it is now (a state no load or swap announced, such as a test's last)."""
        try:
            violations = axe_violations(page)
        except PlaywrightError:
            return  # a closed or navigating page: its documents were checked on their loads
        self.report(None, page.url, violations)

    def assert_clean(self):
        assert not self.found, "\n".join(self.found.values())


@pytest.fixture
def axe_watch():
    return AxeWatch()


@pytest.fixture
def page(browser, request, axe_watch):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    # The date-proof run (bin/test-days, --at) proves the dates; accessibility, which no instant
    # changes, is checked once, in the suite itself.
    if not request.config.getoption("at"):
        axe_watch.watch(context)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    if not request.config.getoption("at"):  # the suite's pictures; the date-proof run needs none
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"{request.node.name}.png", full_page=True)
        axe_watch.check(page)
    context.close()
    axe_watch.assert_clean()


@pytest.fixture(autouse=True)
def _cookies_without_a_date(settings):
    """The server runs at the test's instant (frozen, or DOGTAG_TEST_NOW), Chromium on the real
    clock: a cookie that expires by a date would be expired for Chromium whenever the two are more
    than its age apart. Cookies for the browser's session only have no date to disagree on."""
    settings.SESSION_EXPIRE_AT_BROWSER_CLOSE = True
    settings.CSRF_COOKIE_AGE = None
