"""axe-core in the browser tests (issue 31 §3): every page state a browser test visits is checked,
and any violation, of any impact, fails the test.

axe-core is vendored beside this module (`axe/axe.min.js`, version AXE_VERSION, with its MPL-2.0
licence), so the suite needs no network. It is run through Playwright's evaluate, which the
pages' Content-Security-Policy does not govern, so the policy stays as strict in the tests as in
production."""

from pathlib import Path

AXE_VERSION = "4.10.3"
AXE_SOURCE = (Path(__file__).resolve().parent / "axe" / "axe.min.js").read_text(encoding="utf-8")
# One violation as a test reports it: the rule, its impact, and the first elements with what is wrong.
SUMMARY = """v => ({
  id: v.id, impact: v.impact, help: v.help,
  nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' — ' + n.failureSummary.split('\\n').slice(1).join(' ')),
})"""
# WCAG 2.1 A and AA (the ADA Title II rule's bar) and axe's best practices: the whole default set.
RUN = f"""async () => {{
  if (document.contentType !== 'text/html') return null;
  const result = await axe.run(document, {{resultTypes: ['violations']}});
  return result.violations.map({SUMMARY});
}}"""


# Installed in every document before its own scripts (Playwright's init script, which the CSP does
# not govern): axe runs once the page has loaded and again after each htmx swap, one run at a time,
# and hands its findings to the test through the `__axeReport` binding.
WATCH = (
    AXE_SOURCE
    + """
;(() => {
  if (!/^https?:$/.test(location.protocol) || document.contentType !== 'text/html') return;
  let running = false, again = false;
  async function check() {
    if (running) { again = true; return; }
    running = true;
    try {
      const result = await axe.run(document, {resultTypes: ['violations']});
      window.__axeReport(location.href, result.violations.map("""
    + SUMMARY
    + """));
    } finally {
      running = false;
      if (again) { again = false; check(); }
    }
  }
  window.addEventListener('load', () => check());
  document.addEventListener('htmx:afterSettle', () => check());
})();
"""
)


def axe_violations(page) -> list[dict]:
    """The violations axe-core finds on the page as it is now ([] for a page that is not HTML)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SOURCE)
    return page.evaluate(RUN) or []


def describe(url: str, violations: list[dict]) -> str:
    lines = [f"{len(violations)} accessibility violation(s) on {url}:"]
    for v in violations:
        lines.append(f"  {v['id']} ({v['impact']}): {v['help']}")
        lines.extend(f"    {n}" for n in v["nodes"])
    return "\n".join(lines)


def assert_accessible(page):
    """Fail, naming each rule and element, if axe-core finds any violation on the page now."""
    violations = axe_violations(page)
    assert not violations, describe(page.url, violations)
