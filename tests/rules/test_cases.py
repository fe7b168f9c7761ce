"""Rule tests as data: every `cases/<jurisdiction>/*.yaml` is a list of cases

- name: A sentence saying what the law does here.
  question: license_tax
  on: 2025-04-01
  facts: {...}
  local_amounts: {license_tax.altered: {2023-02-15: "12.00"}}   # optional
  rulings: {nuisance.barking_complaints: other}   # optional: readings ruled (from the case's day)
  expect:
    value: "5.00"                 # compared after to_json
    citations: ["s. 174.05(2)"]   # section substrings that must appear
    cited_once: ["Section 9"]     # optional: sections (exactly) cited once, not twice
    quotes: ["Any pit bull dog"]  # optional: substrings that must appear in some cited quote
    notes: ["one-half"]           # optional: substrings that must appear in some note
    notes_absent: ["one-half"]    # optional: substrings no note may hold
    unconfirmed: ["s. 174.055"]   # optional: exactly these sections are cited as unconfirmed
    status: text_incomplete       # optional: the decision's status (answered / text_incomplete)
    readings: ["pending"]         # optional: substrings of a reading used, or its status
    error: "no forfeiture"        # instead of value: the question refuses with this message
    not_set: [late_fee]           # optional: exactly these keys are not set
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dogtag.rules import ask, to_json
from dogtag.rules.packs import law_dirs, load_pack, pack_ids, read_yaml
from dogtag.rules.schema import Ruled

CASES = Path(__file__).parent / "cases"


def case_folders() -> list[Path]:
    """Each jurisdiction's folder of cases: `cases/<id>/` here, and `cases/<id>/` in every law folder
    DOGTAG_EXTRA_LAW adds, so a municipality added as a folder (pack, text, cases) is tested as it is."""
    roots = [CASES, *(d / "cases" for d in law_dirs()[1:])]
    return sorted((p for root in roots if root.is_dir() for p in root.iterdir() if p.is_dir()), key=lambda p: p.name)


CASE_KEYS = {"name", "question", "on", "facts", "local_amounts", "rulings", "expect"}
EXPECT_KEYS = {
    "value",
    "citations",
    "cited_once",
    "quotes",
    "notes",
    "notes_absent",
    "not_set",
    "unconfirmed",
    "inferred",
    "error",
    "status",
    "readings",
}


def _cases():
    for path in (p for folder in case_folders() for p in sorted(folder.glob("*.yaml"))):
        for i, case in enumerate(read_yaml(path) or []):
            yield pytest.param(path, case, id=f"{path.parent.name}/{path.stem}[{i}] {case.get('name', '')}")


def test_there_are_cases_for_every_jurisdiction():
    assert sorted(p.name for p in case_folders()) == sorted(pack_ids())


def _rulings(pack_id: str, case: dict) -> list[tuple[str, Ruled]]:
    """The case's `rulings` (reading id -> `choice` or `other`), each an attorney's opinion in force
    from the case's day; a reading id the pack does not make is an error in the case."""
    wanted = case.get("rulings") or {}
    known = {rid for rid, _, _ in load_pack(pack_id).readings()}
    assert set(wanted) <= known, f"no such reading in {pack_id}: {sorted(set(wanted) - known)}"
    return [(rid, Ruled(by="attorney_opinion", number="case", on=case["on"], reading=r)) for rid, r in wanted.items()]


@pytest.mark.parametrize("path, case", list(_cases()))
def test_case(path, case):
    assert set(case) <= CASE_KEYS and set(case["expect"]) <= EXPECT_KEYS, f"unknown keys in {path}"
    assert {"name", "question", "on", "expect"} <= set(case), "a case needs name, question, on, expect"
    expect = case["expect"]
    args = (path.parent.name, case["question"], case.get("facts") or {}, case["on"], case.get("local_amounts"))
    rulings = _rulings(path.parent.name, case)
    if "error" in expect:
        with pytest.raises(ValueError) as refused:
            ask(*args, rulings=rulings)
        assert expect["error"] in str(refused.value), str(refused.value)
        return
    got = ask(*args, rulings=rulings).to_json()
    assert got["value"] == to_json(expect.get("value")), got
    sections = [c["section"] for c in got["citations"]]
    for wanted in expect.get("citations", []):
        assert any(wanted in s for s in sections), f"no citation of {wanted!r} in {sections}"
    for wanted in expect.get("cited_once", []):
        assert sections.count(wanted) == 1, f"{wanted!r} is cited {sections.count(wanted)} times in {sections}"
    quotes = [c["quote"] for c in got["citations"]]
    for wanted in expect.get("quotes", []):
        assert any(wanted in q for q in quotes), f"no quote with {wanted!r} in {quotes}"
    if "unconfirmed" in expect:
        flagged = sorted({c["section"] for c in got["citations"] if c.get("unconfirmed")})
        assert flagged == sorted(expect["unconfirmed"]), flagged
        assert len(got["unconfirmed"]) == sum(1 for c in got["citations"] if c.get("unconfirmed"))
    if "inferred" in expect:
        flagged = sorted({c["section"] for c in got["citations"] if c.get("inferred")})
        assert flagged == sorted(expect["inferred"]), flagged
    if "status" in expect:
        assert got["status"] == expect["status"], got["status"]
    for wanted in expect.get("readings", []):
        assert any(wanted in r["reading"] or wanted == r["status"] for r in got["readings"]), got["readings"]
    for wanted in expect.get("notes", []):
        assert any(wanted in n for n in got["notes"]), f"no note with {wanted!r} in {got['notes']}"
    for unwanted in expect.get("notes_absent", []):
        assert not any(unwanted in n for n in got["notes"]), f"a note with {unwanted!r} in {got['notes']}"
    assert sorted(n["key"] for n in got["not_set"]) == sorted(expect.get("not_set", [])), got["not_set"]


def test_every_other_reading_has_a_case_that_rules_it():
    """Each reading whose other side changes the answer (`other.set`) is answered both ways: some
    case rules its `other` reading, in the folder of the pack declaring it or of one inheriting it."""
    ruled = {(p.parent.name, rid) for p, case in (x.values for x in _cases()) for rid in (case.get("rulings") or {})}
    wanted, covered = set(), set()
    for pack in (load_pack(i) for i in pack_ids()):
        for rid, origin, provision in pack.readings():
            if provision.reading and provision.reading.other and provision.reading.other.set:
                wanted.add((origin, rid))
                if (pack.id, rid) in ruled:
                    covered.add((origin, rid))
    assert not wanted - covered, sorted(wanted - covered)
