"""Cedarburg § 7-1-25(a): the transcription lost the numbers of the sections the paragraph prices.
The pack says only what the text supports: how many places the transcription shows (ten at the
least, eleven or twelve possible), and that which sections they are is a reading."""

import re
from datetime import date

from dogtag.rules import ask, packs
from dogtag.rules.schema import Ruled

LIST = re.compile(r"Any person violating Sections ((?:[ ,]|or)*)shall be subject")


def places(text: str) -> tuple[int, int]:
    """The fewest and most section numbers the lost list can have held: one number in each place
    between commas, one or two where an 'or' stands (', X or Y,' and ', or X,' read alike once
    the numbers are gone and the spaces run together)."""
    lost = LIST.search(text)[1]
    parts = lost.split(",")
    ors = sum(1 for p in parts if p.strip() == "or")
    plain = sum(1 for p in parts if p.strip() == "")
    assert plain + ors == len(parts)
    return plain + ors, plain + 2 * ors


def test_the_transcription_shows_ten_places_at_the_least_and_the_pack_claims_no_more_than_it_admits():
    pack = packs.load_pack("wi-cedarburg")
    fewest, most = places(pack.text)
    assert (fewest, most) == (10, 12)
    schedule = next(s for s in pack.forfeitures.ordinance if s.cite.section == "§ 7-1-25(a)")
    assert fewest <= len(schedule.sections) <= most
    assert "eleven section numbers" not in schedule.choice
    assert "ten places for them at the least" in schedule.choice
    other = schedule.reading.other
    assert len(other.set["sections"]) == fewest


def test_an_answer_under_7_1_25_a_tells_staff_the_list_is_lost_and_how_many_places_it_shows():
    on = date(2026, 3, 2)
    for rulings in (
        [],
        [("forfeitures.ordinance.3", Ruled(by="board_resolution", number="R-1", on=on, reading="other"))],
    ):
        got = ask("wi-cedarburg", "forfeiture", {"violation": "7-1-16"}, on, rulings=rulings).to_json()
        cite = next(c for c in got["citations"] if c["section"] == "§ 7-1-25(a)")
        assert "ten numbers at the least, eleven or twelve possible" in cite["inferred"]
        assert (got["value"]["minimum"], got["value"]["maximum"]) == ("50.00", "200.00")
