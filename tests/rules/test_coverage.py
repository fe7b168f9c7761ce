"""`law coverage` reads every section and every paragraph (subsection) from the text itself and
accounts for each: encoded (with the provisions quoting it and the questions reading them) or not
encoded with the pack's reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from dogtag.rules import packs
from dogtag.rules.coverage import coverage
from dogtag.rules.packs import load_pack, normalise, pack_ids

FIXTURE = Path(__file__).parent / "fixtures" / "law"


@pytest.mark.parametrize("jurisdiction", sorted(pack_ids()))
def test_every_section_and_paragraph_of_the_text_is_accounted_for(jurisdiction):
    out = coverage(jurisdiction)
    assert out["unaccounted"] == [], out["unaccounted"]
    assert out["paragraphs"] > 0
    for row in out["sections"]:
        for p in row["subsections"]:
            assert bool(p["provisions"]) != bool(p["not_encoded"]), p  # one or the other, never both
            assert bool(p["provisions"]) <= bool(p["questions"]), p  # an encoded paragraph names its questions


@pytest.mark.parametrize("jurisdiction", sorted(pack_ids()))
def test_the_paragraphs_are_the_whole_text_after_the_first_heading(jurisdiction):
    """Every word of the text from the first section on is in some paragraph listed."""
    pack, out = load_pack(jurisdiction), coverage(jurisdiction)
    listed = " ".join(p["begins"] for r in out["sections"] for p in r["subsections"])
    assert listed
    # each heading the text holds starts a section whose first paragraph begins with its words
    for row in out["sections"]:
        if row["subsections"]:
            assert normalise(row["subsections"][0]["begins"])[:12] in normalise(pack.text)


def test_a_paragraph_is_encoded_by_the_provision_quoting_it_and_names_the_questions():
    rows = {r["section"]: r for r in coverage("wi-webster")["sections"]}
    leash = next(p for p in rows["§ 98-23"]["subsections"] if p["begins"].startswith("Leash and muzzle."))
    assert leash["provisions"] == ["declared_keeping.outside"]
    assert leash["questions"] == ["declared_dog_outside"]
    indoors = next(p for p in rows["§ 98-23"]["subsections"] if p["begins"].startswith("Confinement indoors."))
    assert indoors["provisions"] == [] and "inspects" in indoors["not_encoded"]


def test_subsections_come_from_the_text_not_the_outline():
    """Cedarburg's outline names no subsection, yet § 7-1-24's five numbered paragraphs are listed,
    (4) not encoded with its reason and the rest read by bee_keeping."""
    rows = {r["section"]: r for r in coverage("wi-cedarburg")["sections"]}
    bees = rows["§ 7-1-24"]["subsections"]
    assert [p["label"] for p in bees] == [None, "(1)", "(2)", "(3)", "(4)", "(5)"]
    assert [bool(p["provisions"]) for p in bees] == [True, True, True, True, False, True]
    assert bees[4]["not_encoded"].startswith("(4) the state statutes")
    assert rows["§ 7-1-24"]["questions"] == ["bee_keeping"]


def test_a_paragraph_neither_encoded_nor_explained_is_unaccounted(monkeypatch):
    """The fictional Maple Falls pack explains nothing: its text's paragraph without a provision is
    reported, so a pack cannot pass by leaving a subsection out."""
    monkeypatch.setenv(packs.EXTRA_LAW_ENV, str(FIXTURE))
    packs.clear_cache()
    try:
        out = coverage("wi-maple-falls")
    finally:
        packs.clear_cache()
    rows = {r["section"]: r for r in out["sections"]}
    assert [p["label"] for p in rows["§ 12-1"]["subsections"]] == [None, "A.", "B."]
    assert rows["§ 12-1"]["subsections"][1]["begins"].startswith("A. The owner of any dog")
    assert out["unaccounted"] == ["§ 12-1 ¶2"]  # A.: no provision quotes it, no reason given
