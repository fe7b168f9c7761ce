"""The ordinance, annotated, read in a browser (issue 32 §1): for each of the five municipalities a
reader opens its text from the public list, goes to one section from the contents, follows the
section's permanent link, and searches for words of it; the statutes it names link to the
Legislature. Benton's clerk follows a section's procedure to her own page. No policy violation."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from dogtag.registry.models import Municipality
from dogtag.rules.annotated import annotated
from tests.browser.test_registry import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def a_section_to_read(pack_id):
    """The first section whose paragraphs a provision quotes, and a few of its words to search for."""
    text = annotated(pack_id)
    section = next(s for s in text.sections if any(p.provisions for p in s.paragraphs))
    paragraph = next(p for p in section.paragraphs if p.provisions)
    words = " ".join(paragraph.words.split()[2:5])
    return section, paragraph, words


def test_a_reader_reads_one_section_of_each_ordinance_and_follows_its_links(page, live_server):
    page.set_default_timeout(30_000)  # a loaded machine; the first text is read from its pack
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    call_command("demo", stdout=io.StringIO())
    municipalities = list(Municipality.objects.order_by("name"))
    assert len(municipalities) == 5
    for m in municipalities:
        section, paragraph, words = a_section_to_read(m.rule_pack)
        page.goto(f"{live_server.url}/ordinance/")
        page.get_by_role("link", name=m.name).click()
        expect(page.get_by_role("heading", level=1)).to_contain_text(m.name)
        contents = page.get_by_role("navigation", name="Sections")
        contents.locator(f'a[href="#{section.anchor}"]').click()
        assert page.url.endswith(f"#{section.anchor}")
        here = page.locator(f"#{section.anchor}")
        expect(here).to_be_in_viewport()
        note = page.locator(f"#{paragraph.anchor} .ord-note")
        expect(note.locator(".figure").first).to_contain_text(paragraph.provisions[0])
        for link in page.locator(f"#{section.anchor} a.statute").all():
            assert link.get_attribute("href").startswith("https://docs.legis.wisconsin.gov/statutes/statutes/")
        here.locator("a.permalink").click()
        assert page.url == f"{live_server.url}/ordinance/{m.slug}/#{section.anchor}"
        expect(page.locator(f"#{section.anchor}")).to_be_in_viewport()
        page.get_by_label("Search the text").fill(words)
        page.get_by_role("button", name="Search").click()
        expect(page.get_by_role("status")).to_contain_text("hold")
        expect(page.locator(f"#{paragraph.anchor} mark").first).to_be_visible()
        page.get_by_role("link", name="Show the whole text").click()
        expect(page.locator("mark")).to_have_count(0)
    log_in(page, live_server, "benton-clerk")
    section, _, _ = a_section_to_read("wi-benton")
    page.goto(f"{live_server.url}/ordinance/benton/#s-115-3")
    page.locator("#s-115-3 .ord-counts").wait_for()
    expect(page.locator("#s-115-3 .ord-counts")).to_contain_text("Licenses this license year")
    page.locator("#s-115-3").get_by_role("link", name="The clerk's fee schedule").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Fee schedule")
    assert violations == []
