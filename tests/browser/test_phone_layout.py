"""Case pages on a phone (390 px wide) in real Chromium: tables reflow or scroll inside their own
box, the page never scrolls sideways, and no word is broken across two lines ("Pr/o/of", issue 29)."""

import pytest
from django.urls import reverse

from tests.base import Fixtures
from tests.browser.test_registry import log_in
from tests.enforcement.fixtures import benton_cases

pytestmark = pytest.mark.django_db(transaction=True)

# Each word of the page's visible text (split where a browser may break a line: spaces, hyphens,
# dashes, slashes) whose first and last letters lie on different lines.
BROKEN_WORDS = """() => {
  const line = (node, i) => {
    const range = document.createRange();
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const rects = [...range.getClientRects()].filter(r => r.width > 0);
    return rects.length ? rects[0].top : null;
  };
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.parentElement.closest("select, script, style")) continue;
    for (const m of node.textContent.matchAll(/[^\\s\\-\\u2010-\\u2015\\/]{2,}/g)) {
      const first = line(node, m.index), last = line(node, m.index + m[0].length - 1);
      if (first !== null && last !== null && Math.abs(first - last) > 4) broken.push(m[0]);
    }
  }
  return broken;
}"""
PAGE_WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


class Records:
    pass


def test_case_pages_at_390_px_break_no_word_and_never_scroll_sideways(page, live_server):
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
    for url in pages:
        page.goto(f"{live_server.url}{url}")
        assert page.locator("table").count(), url
        assert page.evaluate(BROKEN_WORDS) == [], url
        scroll_width, window_width = page.evaluate(PAGE_WIDTH)
        assert scroll_width <= window_width, url
