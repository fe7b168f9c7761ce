"""Issue 31 §3: no content lost at 320 px wide (WCAG 1.4.10, Reflow) nor at 200% zoom of a 1280 px
window (WCAG 1.4.4, Resize text): the portal's apply, renew and pay pages, the found-dog lookup,
the counter and a case page. Chromium's zoom is emulated as it works: at 200% a CSS pixel is two
device pixels, so a 1280 x 800 window lays pages out 640 x 400 (device scale factor 2).

On each page: the page does not scroll sideways, and every heading and every element the keyboard
reaches is on screen within the window's width, whole, and not cut off by a box around it (one
that scrolls, such as a wide table's, is scrolled to it first, as the keyboard's focus would)."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from dogtag.licensing import actions as licensing
from dogtag.outbox.models import Message
from tests.base import Fixtures
from tests.browser.test_portal import benton_dog, cash
from tests.browser.test_registry import log_in
from tests.enforcement.fixtures import benton_cases
from tests.payments.support import BENTON_STRIPE, patch_env

pytestmark = pytest.mark.django_db(transaction=True)

WINDOWS = {
    "320 px": {"viewport": {"width": 320, "height": 640}, "device_scale_factor": 1},
    "1280 px at 200%": {"viewport": {"width": 640, "height": 400}, "device_scale_factor": 2},
}

LOST = """() => {
  const width = document.documentElement.clientWidth;
  const lost = [];
  if (document.documentElement.scrollWidth > width)
    lost.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px in ${width}`);
  const name = e => e.tagName.toLowerCase() + ' "' + (e.textContent.trim() || e.name || e.id).slice(0, 40) + '"';
  const reached = 'a[href], button, input:not([type=hidden]), select, textarea, summary, '
    + '[tabindex]:not([tabindex="-1"])';
  for (const e of document.querySelectorAll(reached + ', h1, h2, h3, h4, h5, h6')) {
    if (e.closest('.visually-hidden')) continue;  // words for screen readers only
    if (!e.checkVisibility({visibilityProperty: true})) continue;  // not shown to anyone (a closed "why?")
    if (e.matches(reached)) e.focus();  // the skip link shows when focused
    e.scrollIntoView({block: 'nearest', inline: 'nearest'});  // focus() scrolls a table's box only up and down
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) { lost.push(`${name(e)} has no size`); continue; }
    if (r.left < -1 || r.right > width + 1) {
      lost.push(`${name(e)} runs from ${Math.round(r.left)} to ${Math.round(r.right)} px of ${width}`);
      continue;
    }
    for (let box = e.parentElement; box && box !== document.body; box = box.parentElement) {
      if (getComputedStyle(box).overflowX === 'visible') continue;
      const b = box.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1) {
        lost.push(`${name(e)} is cut off by ${box.tagName.toLowerCase()}.${box.className}`);
        break;
      }
    }
  }
  return lost;
}"""


@pytest.fixture(params=list(WINDOWS))
def window(request, browser, axe_watch):
    context = browser.new_context(**WINDOWS[request.param])
    # As the `page` fixture: the date-proof run (--at) proves the dates, accessibility is checked in the suite.
    checked = not request.config.getoption("at")
    if checked:
        axe_watch.watch(context)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    if checked:
        axe_watch.check(page)
    context.close()
    axe_watch.assert_clean()


def nothing_lost(page):
    page.wait_for_load_state("load")
    lost = page.evaluate(LOST)
    assert not lost, f"{page.url}: " + "; ".join(lost)


def test_the_portal_loses_nothing_at_320_px_and_at_200_percent(window, live_server, settings):
    settings.DOGTAG_BASE_URL = live_server.url
    env = patch_env(BENTON_STRIPE)  # a processor connected: "Pay now by card" and the pay page
    env.start()
    try:
        clerk, benton, dog = benton_dog()
        license = licensing.issue_license(dog, acting_user=clerk, payment=cash(dog))
        licensing.start_renewal_run(acting_user=clerk, municipality=benton, license_year=license.license_year + 1)
        renewal = re.search(r"(http\S+/renew/\S+/)", Message.objects.get(kind="renewal-notice").text).group(1)
        page = window

        page.goto(f"{live_server.url}/")
        nothing_lost(page)
        page.goto(f"{live_server.url}{reverse('portal-home')}")
        nothing_lost(page)
        page.get_by_label("Where do you live?").select_option(value=str(benton.pk))
        page.get_by_label("Your email address").fill("sam@example.org")
        page.get_by_role("button", name="Start my application").click()
        expect(page.get_by_role("button", name="Check the cost")).to_be_visible()
        nothing_lost(page)  # the application

        page.goto(renewal)
        expect(page.get_by_role("heading", level=1)).to_contain_text("Renew the license for Rex")
        nothing_lost(page)
        page.get_by_role("button", name="Check the cost").click()
        page.get_by_label("Pay now by card").check()
        nothing_lost(page)  # the review
        page.get_by_role("button", name="Send my application").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("Pay by card")
        nothing_lost(page)

        page.goto(f"{live_server.url}{reverse('portal-found')}")
        nothing_lost(page)
        page.get_by_label("License tag or rabies tag number").fill(str(license.serial))
        page.get_by_label("License tag or rabies tag number").press("Enter")
        expect(page.get_by_role("heading", name="This is Rex")).to_be_visible()
        nothing_lost(page)

        log_in(page, live_server, "benton-clerk")
        page.goto(f"{live_server.url}{reverse('license-counter', args=[dog.pk])}")
        expect(page.get_by_role("heading", level=1)).to_contain_text("License for Rex")
        nothing_lost(page)  # the counter
    finally:
        env.stop()


class Records:
    pass


def test_case_pages_lose_nothing_at_320_px_and_at_200_percent(window, live_server):
    t = Records()
    Fixtures.build(t)
    benton_cases(t)
    log_in(window, live_server, "officer")
    for case in (t.declaration, t.impoundment, t.quarantine, t.citation):
        window.goto(f"{live_server.url}{reverse('case', args=[case.case_id])}")
        nothing_lost(window)
