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


@pytest.mark.parametrize("jurisdiction", sorted(p for p in pack_ids() if len(load_pack(p).chain) > 1))
def test_every_sentence_of_an_ordinance_is_quoted_or_declared(jurisdiction):
    # an ordinance's every sentence is quoted by a provision or named with the reason it is not
    # encoded (the state pack's text is notes on the statutes, which it quotes from their own text)
    out = coverage(jurisdiction)
    assert out["unquoted_sentences"] == [], out["unquoted_sentences"][:3]


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
    # the text before the first heading is read too; A.: no provision quotes it, no reason given
    assert out["unaccounted"] == ["(before the first heading) ¶1", "§ 12-1 ¶2"]


@pytest.mark.parametrize("jurisdiction", sorted(pack_ids()))
def test_every_cut_off_or_missing_section_is_listed(jurisdiction):
    pack, out = load_pack(jurisdiction), coverage(jurisdiction)
    rows = {r["section"]: r for r in out["sections"]}
    for gap in pack.meta.text_gaps:
        assert rows[gap.section]["text"] == gap.text
        listed = next(c for c in out["cut_off"] if c["section"] == gap.section)
        assert listed["message"].startswith(f"the adopted text of {gap.section}")


def test_webster_coverage_reads_the_text_before_the_first_heading_as_98_3a_and_lists_its_gaps():
    out = coverage("wi-webster")
    rows = {r["section"]: r for r in out["sections"]}
    opening = rows["§ 98-3A"]["subsections"]
    assert opening[0]["begins"].startswith("It shall be unlawful for any person in the Village of Webster")
    assert opening[0]["not_encoded"].startswith("§ 98-3A(1) adopts")
    assert [p["provisions"] for p in opening if p["begins"].startswith("The fact that a dog is without a tag")] == [
        ["definitions.presumed_unlicensed"]
    ]
    assert {(c["section"], c["text"]) for c in out["cut_off"]} >= {
        ("§ 98-23", "incomplete"),
        ("§ 98-1", "missing"),
        ("§ 98-2", "missing"),
    }
    assert rows["§ 98-23"]["text"] == "incomplete" and rows["§ 98-1"]["text"] == "missing"
    benton = {c["section"] for c in coverage("wi-benton")["cut_off"]}
    assert {"§ 115-6", "§ 115-7", "§ 115-9", "§ 115-12", "§ 1-3", "§ 173-1"} <= benton


def test_webster_every_sentence_of_an_encoded_paragraph_is_quoted_or_declared():
    out = coverage("wi-webster")
    assert out["unaccounted"] == [] and out["unquoted_sentences"] == []
    rows = {r["section"]: r for r in out["sections"]}
    posting = [p for p in rows["§ 98-5"]["subsections"] if "at least three public places" in p["words"]]
    assert posting and "quarantine.district" in posting[0]["provisions"]
    muzzle = [p for p in rows["§ 98-23"]["subsections"] if "shall be muzzled" in p["words"]]
    assert muzzle and muzzle[0]["unquoted_sentences"] == []
    # the title before the first heading holds no provision: the opening row no longer lists them all
    assert rows["(before the first heading)"]["provisions"] == []


def test_every_sentence_of_benton_is_quoted_or_declared():
    # the attorney's review (issue 25): each sentence of the Benton text is quoted by a provision or
    # named by a reason it is not encoded, and § 115-15F's last sentence is quoted, not cut off
    out = coverage("wi-benton")
    assert out["unquoted_sentences"] == [] and out["unaccounted"] == []
    f = next(r for r in out["sections"] if r["section"] == "§ 115-15")["subsections"][-1]
    assert "shall be impounded immediately" in f["words"] and "animals.shelter" in f["provisions"]
    assert "§ 115-20" in {c["section"] for c in out["cut_off"]}


TEXT = """Village of Testville, Code ch. 9 (Animals), as the Village Board adopted it
§ 9-1 Dogs.
[Amended 1-1-2020 by Ord. No. 1]
A. Leashes. The owner shall keep the dog on a leash of 6 feet. The owner shall also carry a bag.
B. The owner of any dog shall keep it leashed at all times in the park near the pond.
C. The owner of any dog shall keep it leashed at all times in the street, and shall pay $10.
D. Noise.
E. No dog shall howl at night. No dog shall bark at the moon.
§ 9-2 Cats.
Cats are welcome and bring luck.
"""
PACK = """id: wi-testville
name: Village of Testville
inherits: wi
text: testville-wi.txt
paragraphs:
  starts: '^'
headings:
  - pattern: '^§ (9-\\d+) ([^.\\n]+)\\.'
    section: '§ {1}'
not_encoded:
  - {section: "(before the first heading)", reason: "the code's title"}
  - {section: "§ 9-1", anchors: ["No dog shall howl at night"], reason: "howling: the officer's finding"}
  - {section: "§ 9-2", reason: "cats: no rule with a figure"}
control:
  at_large:
    kept_by: leash
    leash_max_ft: 6
    cite: {section: "§ 9-1A", quote: "The owner shall keep the dog on a leash of 6 feet."}
  QUOTE_B
"""


@pytest.fixture
def testville(tmp_path, monkeypatch):
    (tmp_path / "texts").mkdir()
    (tmp_path / "texts" / "testville-wi.txt").write_text(TEXT)
    monkeypatch.setenv(packs.EXTRA_LAW_ENV, str(tmp_path))
    packs.clear_cache()

    def write(quote_b: str = ""):
        packs.clear_cache()
        (tmp_path / "wi-testville.yaml").write_text(PACK.replace("  QUOTE_B\n", quote_b))
        return coverage("wi-testville")

    yield write
    packs.clear_cache()


def _rows(out):
    return {p["label"] or p["begins"][:12]: p for r in out["sections"] for p in r["subsections"]}


def test_each_reason_a_paragraph_is_not_encoded_is_given(testville):
    rows = _rows(testville())
    assert rows["Village of T"]["not_encoded"] == "the code's title"  # declared for the opening
    assert rows["§ 9-1 Dogs."]["not_encoded"] == "the section's heading"
    assert rows["[Amended 1-1"]["not_encoded"].startswith("a history or reference note")
    assert rows["D."]["not_encoded"].startswith("a subsection's title")
    assert rows["E."]["not_encoded"] == "howling: the officer's finding"  # declared with anchors
    assert rows["Cats are wel"]["not_encoded"] == "cats: no rule with a figure"  # declared for the section
    assert rows["A."]["provisions"] == ["control.at_large"]


def test_an_unquoted_sentence_in_a_quoted_paragraph_shows(testville):
    out = testville()
    a = _rows(out)["A."]
    assert a["provisions"] == ["control.at_large"]
    assert a["unquoted_sentences"] == ["the owner shall also carry a bag."]
    assert any("carry a bag" in s for s in out["unquoted_sentences"])


def test_forty_characters_of_a_quote_in_another_paragraph_do_not_encode_it(testville):
    """B is quoted; C shares B's first forty characters but no provision quotes C."""
    quote_b = "The owner of any dog shall keep it leashed at all times in the park near the pond."
    out = testville(f'licensing:\n  half_tax_on_local_tax:\n    cite: {{section: "§ 9-1B", quote: "{quote_b}"}}\n')
    assert _rows(out)["B."]["provisions"] == ["licensing.half_tax_on_local_tax"]
    assert "§ 9-1 ¶5" in out["unaccounted"] and "§ 9-1 ¶4" not in out["unaccounted"]
