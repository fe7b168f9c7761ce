"""Sections whose adopted text the transcription cuts off or lacks are declared in their pack
(`text_gaps`), and the questions resting on them answer text_incomplete, never "sets no"."""

from __future__ import annotations

from datetime import date

import pytest

from dogtag.rules import PackError, ask, load_pack, packs

GAP = "the adopted text of § 98-23 after B(5) is not in Dogtag: ask the clerk for it"


@pytest.mark.parametrize(
    "question, facts",
    [
        ("declared_dog_insurance", {"classification": "vicious"}),
        ("compliance_deadline", {"determined_on": "2026-05-01"}),
        ("failure_to_comply", {"classification": "vicious"}),
    ],
)
def test_webster_vicious_dog_questions_past_b5_are_text_incomplete(question, facts):
    d = ask("wi-webster", question, facts, date(2026, 5, 1)).to_json()
    assert d["status"] == "text_incomplete"
    assert any(GAP in n for n in d["notes"]) and any(GAP in t for t in d["text_incomplete"])
    assert not any("sets no" in n for n in d["notes"]), d["notes"]
    gap = next(c for c in d["citations"] if c.get("incomplete"))
    assert gap["section"] == "§ 98-23" and gap["quote"].startswith("A similar sign is required")
    assert "Beware of Dog" in gap["incomplete"]  # what is known up to the cut


def test_a_question_on_a_complete_section_is_answered():
    d = ask("wi-webster", "declared_dog_outside", {"classification": "vicious"}, date(2026, 5, 1)).to_json()
    assert d["status"] == "answered" and d["text_incomplete"] == []


def test_benton_115_15f_is_complete_and_its_missing_sections_are_declared():
    benton = load_pack("wi-benton")
    declared = {g.section: g for g in benton.meta.text_gaps}
    for section in [
        "§ 115-6",
        "§ 115-7",
        "§ 115-9",
        "§ 115-12",
        "§ 115-13",
        "§ 115-14",
        "§ 115-16",
        "§ 115-17",
        "§ 115-18",
        "§ 115-19",
        "§ 115-20",
        "§ 1-3",
        "§ 173-1",
    ]:
        assert declared[section].text == "missing", section
    assert not any(s.startswith("§ 115-15") for s in declared)
    assert "shall be impounded immediately" in benton.text


def test_each_cut_off_text_is_declared_where_it_stops():
    stops = {
        (p.id, g.section): g.stops_after for p in packs.all_packs() for g in p.meta.text_gaps if g.text == "incomplete"
    }
    assert stops[("wi-webster", "§ 98-23")] == "B(5)"
    assert stops[("wi-cedarburg", "§ 7-1-26")] == "(e)(5)"
    assert ("wi-sampson", "Ord. 3-2007 Section 7B") in stops
    d = ask("wi-cedarburg", "hen_permit_revocation", {}, date(2026, 5, 1)).to_json()
    assert d["status"] == "text_incomplete"
    assert "the adopted text of § 7-1-26 after (e)(5) is not in Dogtag" in " ".join(d["notes"])


def test_sampson_sections_cut_off_mid_sentence_are_declared_and_listed():
    from dogtag.rules.coverage import coverage

    stops = {g.section: g.stops_after for g in load_pack("wi-sampson").meta.text_gaps if g.text == "incomplete"}
    assert stops["Ord. 3-2007 Section 9"] == "'penalized by the Town of'"
    for section in ("Ord. 3-2007 Section 4H", "Ord. 3-2007 Section 4I", "Ord. 3-2007 Section 4J"):
        assert stops[section] == "'the Town of'", section
    listed = {c["section"] for c in coverage("wi-sampson")["cut_off"]}
    assert set(stops) <= listed


def test_a_gap_when_cited_binds_only_the_answers_citing_its_section():
    """Sampson Section 9 prices the ordinance's violations and is cut off; s. 174.042's range is not."""
    on = date(2026, 5, 10)
    own = ask("wi-sampson", "forfeiture", {"violation": "Section 5B"}, on).to_json()
    state = ask("wi-sampson", "forfeiture", {"violation": "s. 174.042"}, on).to_json()
    assert own["status"] == "text_incomplete" and "Ord. 3-2007 Section 9" in " ".join(own["text_incomplete"])
    assert state["status"] == "answered" and state["text_incomplete"] == []


TEXT = "§ 1 Vicious dogs. A. Signs. The owner shall post a sign within 15 days.\n"
PACK = """id: wi-gapton
name: Village of Gapton
inherits: wi
text: gapton-wi.txt
text_gaps:
  - section: "§ 1"
    text: incomplete
    stops_after: "A"
    last_words: "The owner shall post a sign within 15 days."
    known: "A (signs)"
    questions: [declared_dog_insurance]
{extra}
"""


@pytest.fixture
def law(tmp_path, monkeypatch):
    (tmp_path / "texts").mkdir()
    (tmp_path / "texts" / "gapton-wi.txt").write_text(TEXT)
    monkeypatch.setenv(packs.EXTRA_LAW_ENV, str(tmp_path))
    packs.clear_cache()
    yield tmp_path
    packs.clear_cache()


def test_when_the_full_text_is_loaded_the_answer_changes_from_its_date(law):
    (law / "wi-gapton.yaml").write_text(
        PACK.replace("{extra}", "").replace(
            "questions: [declared_dog_insurance]", "questions: [declared_dog_insurance]\n    full_text_from: 2027-01-01"
        )
    )
    before = ask("wi-gapton", "declared_dog_insurance", {"classification": "vicious"}, date(2026, 12, 31))
    after = ask("wi-gapton", "declared_dog_insurance", {"classification": "vicious"}, date(2027, 1, 1))
    assert before.status == "text_incomplete" and before.text_incomplete() == [
        "the adopted text of § 1 after A is not in Dogtag: ask the clerk for it (known: A (signs))"
    ]
    assert after.status == "answered" and after.text_incomplete() == []


@pytest.mark.parametrize(
    "change, path, reason",
    [
        (
            ('last_words: "The owner shall post a sign within 15 days."', 'last_words: "words the text never had"'),
            "text_gaps.0.last_words",
            "is not in gapton-wi.txt",
        ),
        (
            ("questions: [declared_dog_insurance]", "questions: [no_such_question]"),
            "text_gaps.0.questions",
            "no question",
        ),
        (('    last_words: "The owner shall post a sign within 15 days."\n', ""), "text_gaps.0", "where it stops"),
    ],
)
def test_a_bad_declaration_is_refused(law, change, path, reason):
    (law / "wi-gapton.yaml").write_text(PACK.replace("{extra}", "").replace(*change))
    with pytest.raises(PackError) as exc:
        packs.load_pack("wi-gapton")
    assert any(p == path and reason in r for _, p, r in exc.value.errors), exc.value.errors


def test_river_hills_2_14_is_whole_and_the_section_it_names_but_lacks_is_declared():
    """River Hills' transcription runs from § 2.14's title to (8) Penalty, every paragraph ending its
    sentence; the one cut-off it has is § 4-208, named by (6)[e](1)(ix) and not transcribed."""
    rh = load_pack("wi-river-hills")
    assert [(g.section, g.text) for g in rh.meta.text_gaps] == [("§ 4-208", "missing")]
    assert rh.text.lstrip().startswith("Section 2.14.") and "Each day a violation continues" in rh.text
    d = ask("wi-river-hills", "failure_to_comply", {"classification": "dangerous"}, date(2026, 5, 1)).to_json()
    assert d["status"] == "text_incomplete" and d["value"]["seizure"] is True
    assert "the adopted text of § 4-208 is not in Dogtag: ask the clerk for it" in " ".join(d["notes"])
    whole = ask("wi-river-hills", "hearing_window", {"served_on": "2026-05-01"}, date(2026, 5, 1)).to_json()
    assert whole["status"] == "answered"
