"""A sixth municipality is a pack file and its text in a law folder: no Python changes.

The fictional Village of Maple Falls lives under tests/rules/fixtures/law/ and is found through
DOGTAG_EXTRA_LAW, the way a deployment adds a jurisdiction beside the five."""

from datetime import date
from pathlib import Path

import pytest

from dogtag.rules import ask, packs
from dogtag.rules.coverage import coverage

FIXTURE = Path(__file__).parent / "fixtures" / "law"


@pytest.fixture
def maple_falls(monkeypatch):
    monkeypatch.setenv(packs.EXTRA_LAW_ENV, str(FIXTURE))
    packs.clear_cache()
    yield
    packs.clear_cache()


def test_it_is_discovered_after_the_pack_it_inherits(maple_falls):
    ids = packs.pack_ids()
    assert "wi-maple-falls" in ids and ids.index("wi") < ids.index("wi-maple-falls")
    assert packs.load_pack("wi-maple-falls").chain == ("wi", "wi-maple-falls")


def test_it_answers_the_license_tax_and_late_fee_from_its_own_text(maple_falls):
    tax = ask("wi-maple-falls", "license_tax", {"born_on": "2020-01-01"}, date(2026, 3, 31))
    assert tax.to_json()["value"]["amount"] == "14.00"
    assert [(c.jurisdiction, c.section) for c in tax.citations] == [("wi-maple-falls", "§ 12-1B")]
    charges = ask("wi-maple-falls", "license_charges", {"born_on": "2020-01-01", "altered": True}, date(2026, 4, 1))
    assert {k: charges.to_json()["value"][k] for k in ("tax", "late_fee", "total", "trigger")} == {
        "tax": "7.00", "late_fee": "5.00", "total": "12.00", "trigger": "renewal"}
    # the s. 174.05(2) one-half rule is inherited from wi
    half = ask("wi-maple-falls", "license_tax", {"born_on": "2026-02-02"}, date(2026, 7, 2))
    assert half.to_json()["value"]["amount"] == "7.00" and half.value.half_tax
    assert "s. 174.05(2)" in [c.section for c in half.citations]


def test_it_answers_the_bite_quarantine_with_its_own_confinement_and_the_states_observation(maple_falls):
    d = ask("wi-maple-falls", "bite_quarantine", {"bitten_on": "2026-06-01", "currently_immunized": True},
            date(2026, 6, 1)).to_json()
    assert d["value"]["owner_confinement_ends"] == "2026-06-13"
    assert d["value"]["observation_ends"] == "2026-06-11"
    assert d["value"]["places_allowed"] == ["isolation_facility", "owner_premises"]
    assert {c["jurisdiction"] for c in d["citations"]} == {"wi", "wi-maple-falls"}


def test_its_coverage_lists_its_sections(maple_falls):
    rows = {r["section"]: r for r in coverage("wi-maple-falls")["sections"]}
    assert set(rows) == {"(before the first heading)", "§ 12-1", "§ 12-2", "§ 12-3"}
    assert rows["§ 12-3"]["provisions"] == ["quarantine.owner_confinement"]


def test_without_the_folder_it_is_not_a_jurisdiction(monkeypatch):
    monkeypatch.delenv(packs.EXTRA_LAW_ENV, raising=False)
    packs.clear_cache()
    try:
        assert "wi-maple-falls" not in packs.pack_ids()
        with pytest.raises(packs.PackError, match="no rule pack 'wi-maple-falls'"):
            packs.load_pack("wi-maple-falls")
    finally:
        packs.clear_cache()
