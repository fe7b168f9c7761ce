"""Issue 31 §3, keyboard only: a resident applies on the portal (the renewal notice's link, on a
phone) and a clerk sells a license at the counter with Tab, Enter and Space alone; every stop
the Tab key makes shows where the focus is (an outline of at least 2 px, or a ring) and is on
screen."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from dogtag.licensing import actions as licensing
from dogtag.licensing.facts import read_facts
from dogtag.licensing.models import License
from dogtag.licensing.owed import what_is_owed
from dogtag.licensing.years import license_years_on_sale, preselected_year
from dogtag.outbox.models import Message
from tests.browser.test_portal import PHONE, benton_dog, cash

pytestmark = pytest.mark.django_db(transaction=True)
FOCUS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e), r = e.getBoundingClientRect();
  return {
    what: e.tagName.toLowerCase() + ' ' + (e.id || e.name || e.textContent.trim().slice(0, 40)),
    ring: (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) || s.boxShadow !== 'none',
    on_screen: r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight,
  };
}"""


def tab_to(page, target, most=60):
    """Press Tab until `target` has the focus, checking each stop on the way shows its focus."""
    for _ in range(most):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUS)
        if stop is None:
            continue
        assert stop["ring"], f"no visible focus on {stop['what']} ({page.url})"
        assert stop["on_screen"], f"the focus is off screen on {stop['what']} ({page.url})"
        if target.evaluate("e => e === document.activeElement"):
            return
    raise AssertionError(f"{target} not reached in {most} presses of Tab on {page.url}")


def test_a_resident_applies_by_keyboard_alone_on_a_phone(page, live_server, settings):
    settings.DOGTAG_BASE_URL = live_server.url
    clerk, benton, dog = benton_dog()
    this_year = licensing.issue_license(dog, acting_user=clerk, payment=cash(dog))
    licensing.start_renewal_run(acting_user=clerk, municipality=benton, license_year=this_year.license_year + 1)
    link = re.search(r"(http\S+/renew/\S+/)", Message.objects.get(kind="renewal-notice").text).group(1)

    page.set_viewport_size(PHONE)
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Renew the license for Rex")
    # the first Tab reaches the skip link, which then shows on screen
    skip = page.get_by_role("link", name="Skip to content")
    tab_to(page, skip, most=1)
    tab_to(page, page.get_by_role("button", name="Check the cost"))
    page.keyboard.press("Enter")
    expect(page.get_by_text("Your dog's license costs $10.00")).to_be_visible()
    counter = page.get_by_label("Pay at the clerk's counter or by mailed check")
    tab_to(page, counter)
    page.keyboard.press("Space")
    expect(counter).to_be_checked()
    tab_to(page, page.get_by_role("button", name="Send my application"))
    page.keyboard.press("Enter")
    expect(page.get_by_text("Waiting for the clerk")).to_be_visible()


def test_a_clerk_sells_a_license_at_the_counter_by_keyboard_alone(page, live_server):
    clerk, benton, dog = benton_dog()
    page.goto(f"{live_server.url}/login/")
    tab_to(page, page.get_by_label("Username"))
    page.keyboard.type("benton-clerk")
    tab_to(page, page.get_by_label("Password"))
    page.keyboard.type("dogtag-demo")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Village of Benton")

    page.goto(f"{live_server.url}/animals/{dog.pk}/license/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("License for Rex")
    today = timezone.localdate()
    year = preselected_year(license_years_on_sale(benton, today))
    tab_to(page, page.get_by_label("Amount received"))
    page.keyboard.type(str(what_is_owed(read_facts(dog, today, year)).total))
    tab_to(page, page.get_by_role("button", name=f"Issue the {year} license"))
    page.keyboard.press("Space")
    expect(page.get_by_role("heading", level=1)).to_contain_text("dog license 101")
    assert License.objects.get(animal=dog, voided_at=None).license_year == year
