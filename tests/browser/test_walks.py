"""Issue 29's walk, kept: each role in each municipality, at 1280 and 390 px, opens every page its
home links to (the links are read from the home page itself, so a menu entry added later is
walked too) and finds no error page, no sideways scrolling on a phone, no accessibility
violation (axe-core, conftest's watch) and no dead end: every page has a way home.

One browser for the process (conftest), one logged-in context per role within a test; a page
the role has already walked at this width in this test is only asked for again, not redrawn."""

import io
import os
import time
from urllib.parse import urljoin, urlsplit

import pytest
from django.core.management import call_command
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)
WIDTHS = {"1280": {"width": 1280, "height": 900}, "390": {"width": 390, "height": 844}}
SLUGS = ["benton", "cedarburg", "webster", "river-hills", "sampson"]
# Links a walk follows but does not open as a page: leaving the session, and Django's admin (the
# configuration screens, not Dogtag's own pages).
NOT_WALKED = ("/logout/", "/admin/")
MENUS = ", ".join(f"{where} a[href]" for where in ("header", "nav", ".actions", ".panel", "footer", "body.portal main"))
# The JavaScript of a walk's checks on one page: sideways overflow (a phone must not scroll
# sideways; a table may scroll inside its own box) and the way home.
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
# The element that reaches furthest right, for the report of a page that scrolls sideways.
WIDEST = """() => { let w = null, r = 0;
  for (const e of document.querySelectorAll('main *')) {
    const right = e.getBoundingClientRect().right;
    if (right > r) { r = right; w = e; }
  }
  return w ? `${w.tagName.toLowerCase()}.${w.className} (${w.textContent.trim().slice(0, 60)})` : ""; }"""
WAY_HOME = """(homes) => [...document.querySelectorAll('a[href]')]
    .some(a => homes.includes(new URL(a.href, location.href).pathname))"""


def logged_in(browser, live_server, viewport, username):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(20_000)
    if username:
        page.goto(f"{live_server.url}/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill("dogtag-demo")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_load_state("load")
        if "/two-factor/" in page.url:  # the administrator's second factor
            device = TOTPDevice.objects.get(user__username=username, confirmed=True)
            page.get_by_label("6-digit code").fill(f"{totp(device.bin_key):06d}")
            page.get_by_role("button", name="Continue").click()
            page.wait_for_load_state("load")
    return context, page


def menu_links(page, base) -> list[str]:
    """Every page the current page's menus link to on this site (its navigation, action bars,
    today's panels, the footer; on the portal the whole page), in the order shown, once each.
    Records listed on a home (recent activity) are not its menu."""
    hrefs = page.eval_on_selector_all(MENUS, "as => as.map(a => a.getAttribute('href'))")
    found = []
    for href in hrefs:
        url = urljoin(page.url, href).split("#")[0]
        if urlsplit(url).netloc != urlsplit(base).netloc or any(p in url for p in NOT_WALKED):
            continue
        if url not in found:
            found.append(url)
    return found


class Walk:
    def __init__(self, live_server, axe_watch, width):
        self.base = live_server.url
        self.axe = axe_watch
        self.width = width
        self.problems: list[str] = []
        self.visited: dict[str, list[str]] = {}

    def walk(self, role, page, home, homes):
        """The home and each page its menus link to: opened and checked the first time the role meets
        it at this width, only asked for (its answer's status) after that, and if it is a download."""
        page.goto(self.base + home)
        expect(page.locator("h1")).to_be_visible()
        self.check(role, page, homes)
        seen = self.visited.setdefault(role, [])
        for url in menu_links(page, self.base):
            parts = urlsplit(url)
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            answer = None
            if path not in seen:
                seen.append(path)
                try:
                    answer = page.goto(url)
                except PlaywrightError:  # a download (a PDF, a CSV): asked for below instead
                    answer = None
            opened = answer is not None
            answer = answer or page.request.get(url, max_redirects=5)
            if answer.status >= 400:
                self.problems.append(f"{role}: {url} answers {answer.status} (linked from {home})")
            elif opened:
                self.check(role, page, homes)

    def check(self, role, page, homes):
        page.wait_for_load_state("load")
        if self.width == "390" and (over := page.evaluate(OVERFLOW)) > 0:
            widest = page.evaluate(WIDEST)
            self.problems.append(f"{role}: {page.url} scrolls sideways by {over} px at 390 px: {widest}")
        if not page.evaluate(WAY_HOME, homes):
            self.problems.append(f"{role}: {page.url} has no way back (no link to {' or '.join(homes)})")
        self.axe.check(page)


def walks():
    """Each municipality once, the widths taken in turn, so both widths cross every kind of menu in
    the suite's time; DOGTAG_WALK_EVERY_WIDTH=1 walks every municipality at both widths (before a
    release)."""
    if os.environ.get("DOGTAG_WALK_EVERY_WIDTH") == "1":
        return [(slug, width) for slug in SLUGS for width in WIDTHS]
    widths = list(WIDTHS)
    return [(slug, widths[i % len(widths)]) for i, slug in enumerate(SLUGS)]


@pytest.mark.parametrize(("slug", "width"), walks())
def test_each_role_walks_its_home_menu(browser, live_server, axe_watch, slug, width):
    started = time.monotonic()
    call_command("demo", "--with-sample-data", stdout=io.StringIO())
    home = f"/m/{slug}/"
    walk = Walk(live_server, axe_watch, width)
    roles = {
        "resident": (None, "/", ["/"]),
        "clerk": (f"{slug}-clerk", home, ["/", home]),
        "officer": ("officer", home, ["/", home, "/my-cases/"]),
        "vet": ("vet", home, ["/", home]),
        "administrator": ("admin", home, ["/", home]),
    }
    for role, (username, start, homes) in roles.items():
        context, page = logged_in(browser, live_server, WIDTHS[width], username)
        try:
            walk.walk(role, page, start, homes)
            if role == "officer":
                walk.walk(role, page, "/my-cases/", homes)
            if role == "resident":  # the portal's own pages, as a resident moves through them
                walk.walk(role, page, "/apply/", homes)
                walk.walk(role, page, "/found/", homes)
        finally:
            context.close()
    print(
        f"\nwalk {slug} at {width} px: "
        + "; ".join(f"{role} {len(paths) + 1} pages" for role, paths in walk.visited.items())
        + f"; {time.monotonic() - started:.1f} s"
    )
    assert not walk.problems, "\n".join(walk.problems)
    axe_watch.assert_clean()
