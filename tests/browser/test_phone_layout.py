"""Case pages on a phone (390 px wide) in real Chromium: tables reflow or scroll inside their own
box, the page never scrolls sideways, and no word is broken across two lines ("Pr/o/of", issue 29)."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse

from tests.base import Fixtures
from tests.browser.test_registry import log_in
from tests.enforcement.fixtures import benton_cases

pytestmark = pytest.mark.django_db(transaction=True)

# Each table cell narrower than its longest word (each measured in its own font), which the
# browser could only have fitted by breaking the word across lines.
BROKEN_WORDS = """() => {
  const context = document.createElement("canvas").getContext("2d");
  const broken = [];
  for (const cell of document.querySelectorAll("main td, main th")) {
    const style = getComputedStyle(cell);
    if (style.display === "none" || !cell.offsetParent) continue;
    const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const parent = walker.currentNode.parentElement;
      // a closed "why?", or an open one, which opens over the page
      if (!parent.getClientRects().length || parent.closest("details > :not(summary)")) continue;
      context.font = getComputedStyle(parent).font;  // each text in its own font
      for (const word of walker.currentNode.textContent.split(/[\\s\\-\\u2010-\\u2015\\/]+/)) {
        if (word && context.measureText(word).width > room + 1) broken.push(word);
      }
    }
  }
  return broken;
}"""
PAGE_WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


class Records:
    pass


def case_pages_at_390_px(page, live_server) -> str:
    """Walks Benton's case pages on a phone, checking each; returns the text of the pages."""
    t = Records()
    Fixtures.build(t)
    benton_cases(t)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server, "officer")
    pages = [
        reverse("case", args=[t.declaration.case_id]),
        reverse("case", args=[t.impoundment.case_id]),
        reverse("case", args=[t.quarantine.case_id]),
        reverse("case", args=[t.citation.case_id]),
        reverse("municipality-cases", args=["benton"]),
    ]
    text = ""
    for url in pages:
        page.goto(f"{live_server.url}{url}")
        assert page.locator("table").count(), url
        assert page.evaluate(BROKEN_WORDS) == [], url
        scroll_width, window_width = page.evaluate(PAGE_WIDTH)
        assert scroll_width <= window_width, url
        text += page.locator("main").inner_text()
    return text


def test_case_pages_at_390_px_break_no_word_and_never_scroll_sideways(page, live_server):
    case_pages_at_390_px(page, live_server)


# A Sunday: the deadlines that fall on it move to Monday, and their table cites s. 990.001(4)(b),
# whatever day the suite runs on.
@time_machine.travel(datetime(2027, 1, 3, 10, tzinfo=ZoneInfo("America/Chicago")), tick=True)
def test_a_deadline_moved_over_a_sunday_fits_its_cell_at_390_px(page, live_server):
    assert "s. 990.001(4)(b)" in case_pages_at_390_px(page, live_server)
