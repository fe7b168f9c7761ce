"""Readings that wait for a ruling: each `choice` is pending until ruled; a ruling is dated (answers
for days before it do not change) and passed in as data (the engine stays pure)."""

from __future__ import annotations

from datetime import date

import pytest

from dogtag.rules import ask, packs
from dogtag.rules.decision import PENDING_LABEL
from dogtag.rules.schema import Ruled

TEXT = "§ 1 Bites. The owner shall keep such dog confined for not less than 12 days after the bite.\n"
PACK = """id: wi-readton
name: Village of Readton
inherits: wi
text: readton-wi.txt
quarantine:
  owner_confinement:
    days: 12
    cite: {section: "§ 1", quote: "shall keep such dog confined for not less than 12 days after the bite"}
    choice: "the 12 days count from the day of the bite, that day excluded"
    reading:
      id: readton-confinement
      other:
        choice: "the 12 days count from the day the owner learns of the bite"
        changes: "the confinement ends later where the owner learns of the bite after it"
        set: {days: 14}
RECORDED
"""
FACTS = {"bitten_on": "2026-06-01", "currently_immunized": True}


@pytest.fixture
def law(tmp_path, monkeypatch):
    (tmp_path / "texts").mkdir()
    (tmp_path / "texts" / "readton-wi.txt").write_text(TEXT)
    monkeypatch.setenv(packs.EXTRA_LAW_ENV, str(tmp_path))

    def write(recorded: str = ""):
        packs.clear_cache()
        (tmp_path / "wi-readton.yaml").write_text(PACK.replace("RECORDED\n", recorded))

    yield write
    packs.clear_cache()


def test_a_choice_is_pending_with_the_other_reading_and_what_it_would_change(law):
    law()
    d = ask("wi-readton", "bite_quarantine", FACTS, date(2026, 6, 1)).to_json()
    assert d["value"]["owner_confinement_ends"] == "2026-06-13"
    reading = next(r for r in d["readings"] if r["section"] == "§ 1")
    assert reading["status"] == "pending" and reading["label"] == PENDING_LABEL
    assert "learns of the bite" in reading["other_reading"] and "ends later" in reading["other_reading"]


def test_a_ruling_applies_from_its_date_and_answers_by_the_ruled_reading(law):
    law()
    ruling = Ruled(by="attorney_opinion", number="2026-7", on=date(2026, 7, 1), reading="other")
    before = ask("wi-readton", "bite_quarantine", FACTS, date(2026, 6, 30), rulings=[("readton-confinement", ruling)])
    after = ask("wi-readton", "bite_quarantine", FACTS, date(2026, 7, 1), rulings=[("readton-confinement", ruling)])
    assert before.to_json()["value"]["owner_confinement_ends"] == "2026-06-13"
    assert after.to_json()["value"]["owner_confinement_ends"] == "2026-06-15"
    ruled = next(r for r in after.readings() if r["section"] == "§ 1")
    assert ruled["status"] == "ruled" and ruled["ruled_by"] == "attorney's opinion 2026-7 of July 1, 2026"
    assert "learns of the bite" in ruled["reading"] and "label" not in ruled
    assert next(r for r in before.readings() if r["section"] == "§ 1")["status"] == "pending"


def test_a_ruling_the_pack_records_is_dated_too(law):
    law()
    recorded = PACK.replace(
        "        set: {days: 14}\nRECORDED\n",
        "        set: {days: 14}\n      ruled:\n        - {by: board_resolution, number: R-12, on: 2027-01-01}\n",
    )
    packs.clear_cache()
    (packs.law_dirs()[1] / "wi-readton.yaml").write_text(recorded)
    d26 = ask("wi-readton", "bite_quarantine", FACTS, date(2026, 12, 31)).readings()
    d27 = ask("wi-readton", "bite_quarantine", FACTS, date(2027, 1, 1)).readings()
    assert next(r for r in d26 if r["section"] == "§ 1")["status"] == "pending"
    mine = next(r for r in d27 if r["section"] == "§ 1")
    assert mine["status"] == "ruled" and mine["ruled_by"] == "Board resolution R-12 of January 1, 2027"


def test_every_choice_in_the_five_packs_has_a_status():
    for pack in packs.all_packs():
        for rid, _, provision in pack.readings():
            for cite in (provision.cite, *provision.also):
                assert cite.citation.reading_status in ("pending", "ruled"), (pack.id, rid)
