"""A sixth municipality is a pack file and its text in a law folder: no Python changes.

The fictional Village of Maple Falls lives under tests/rules/fixtures/law/ and is found through
DOGTAG_EXTRA_LAW, the way a deployment adds a jurisdiction beside the five."""

import os
import subprocess
import sys
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
        "tax": "7.00",
        "late_fee": "5.00",
        "total": "12.00",
        "trigger": "renewal",
    }
    # the s. 174.05(2) one-half rule is inherited from wi
    half = ask("wi-maple-falls", "license_tax", {"born_on": "2026-02-02"}, date(2026, 7, 2))
    assert half.to_json()["value"]["amount"] == "7.00" and half.value.half_tax
    assert "s. 174.05(2)" in [c.section for c in half.citations]


def test_it_answers_the_bite_quarantine_with_its_own_confinement_and_the_states_observation(maple_falls):
    d = ask(
        "wi-maple-falls", "bite_quarantine", {"bitten_on": "2026-06-01", "currently_immunized": True}, date(2026, 6, 1)
    ).to_json()
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


# --- a municipality added as a folder alone: its pack, its text and its cases --------------------

SIXTH_TEXT = """§ 4-1 Dog licenses.
A. The license tax shall be $6 for spayed females or neutered males and $12 for other dogs.
B. The Clerk shall collect a late fee of $5 from an owner who failed to obtain a license prior to April 1.
"""
SIXTH_PACK = """id: wi-birch-hollow
name: Village of Birch Hollow
inherits: wi
text: birch-hollow-wi.txt
paragraphs:
  starts: '^'
headings:
  - pattern: '^§ (4-\\d+) ([^.\\n]+)\\.'
    section: '§ {1}'
licensing:
  tax:
    altered: {2020-01-01: "6.00"}
    unaltered: {2020-01-01: "12.00"}
    cite:
      section: "§ 4-1A"
      quote: "The license tax shall be $6 for spayed females or neutered males and $12 for other dogs."
  late_fee:
    amount: {2020-01-01: "5.00"}
    renewal_before: {month: 4, day: 1}
    acquired_within: {days: 30}
    cite: {section: "§ 4-1B", quote: "a late fee of $5 from an owner who failed to obtain a license prior to April 1"}
"""
SIXTH_CASES = """- name: An unaltered dog pays Birch Hollow's $12.
  question: license_tax
  "on": 2026-03-01
  facts: {born_on: 2020-01-01}
  expect:
    value: {applies: true, amount: "12.00", basis: tax, half_tax: false, no_tax: null, exclusion: null}
    citations: ["§ 4-1A"]
"""


def _sixth(folder: Path, cases: str = SIXTH_CASES) -> None:
    (folder / "texts").mkdir(parents=True)
    (folder / "texts" / "birch-hollow-wi.txt").write_text(SIXTH_TEXT)
    (folder / "wi-birch-hollow.yaml").write_text(SIXTH_PACK)
    (folder / "cases" / "wi-birch-hollow").mkdir(parents=True)
    (folder / "cases" / "wi-birch-hollow" / "licensing.yaml").write_text(cases)


def _run_suite(folder: Path) -> subprocess.CompletedProcess:
    """The rule suite's data-driven files, run as `make test` runs them, with the folder added."""
    env = {**os.environ, packs.EXTRA_LAW_ENV: str(folder)}
    here = Path(__file__).parent
    files = [str(here / n) for n in ("test_cases.py", "test_coverage.py", "test_packs.py")]
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", "-k", "birch or every", *files],
        env=env,
        capture_output=True,
        text=True,
        cwd=here.parent.parent,
        timeout=600,
    )


def test_a_sixth_municipality_folder_is_picked_up_by_the_suite_without_editing_it(tmp_path):
    _sixth(tmp_path / "birch")
    run = _run_suite(tmp_path / "birch")
    assert run.returncode == 0, run.stdout[-3000:]
    # its case ran, and the checks over every jurisdiction ran over it too
    listing = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "--collect-only",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            str(Path(__file__).parent / "test_cases.py"),
            str(Path(__file__).parent / "test_coverage.py"),
        ],
        env={**os.environ, packs.EXTRA_LAW_ENV: str(tmp_path / "birch")},
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent.parent.parent,
        timeout=600,
    ).stdout
    assert "wi-birch-hollow/licensing[0] An unaltered dog pays Birch Hollow's $12." in listing
    assert "test_every_section_and_paragraph_of_the_text_is_accounted_for[wi-birch-hollow]" in listing


def test_a_wrong_case_in_the_sixth_folder_fails_the_suite(tmp_path):
    _sixth(tmp_path / "birch", SIXTH_CASES.replace('"12.00"', '"13.00"'))
    run = _run_suite(tmp_path / "birch")
    assert run.returncode != 0 and "wi-birch-hollow/licensing[0]" in run.stdout


def _load_errors(tmp_path, monkeypatch, body: str) -> list[tuple[str, str, str]]:
    _sixth(tmp_path / "birch")
    (tmp_path / "birch" / "wi-birch-hollow.yaml").write_text(body)
    monkeypatch.setenv(packs.EXTRA_LAW_ENV, str(tmp_path / "birch"))
    packs.clear_cache()
    try:
        with pytest.raises(packs.PackError) as exc:
            packs.load_pack("wi-birch-hollow")
    finally:
        packs.clear_cache()
    return exc.value.errors


def test_the_validator_reports_every_error_of_a_pack_at_once(tmp_path, monkeypatch):
    body = (
        SIXTH_PACK.replace(
            "licensing:", "licence: {}\noutline: [{section: '§ 4-9', heading: 'words it lacks'}]\nlicensing:"
        )
        .replace("renewal_before: {month: 4, day: 1}", "renewal_before: {month: 4}")
        .replace('unaltered: {2020-01-01: "12.00"}', "unaltered: {2020-01-01: 12.0}")
    )
    errors = _load_errors(tmp_path, monkeypatch, body)
    paths = {p for _, p, _ in errors}
    assert {
        "licence",
        "outline.0.heading",
        "licensing.late_fee.renewal_before.day",
        "licensing.tax.unaltered.2020-01-01",
    } <= paths, errors


@pytest.mark.parametrize(
    "change, path, words",
    [
        (
            ('amount: {2020-01-01: "5.00"}', 'amount: {2020-01-01: "10.00"}'),
            "licensing.late_fee.amount.2020-01-01",
            "the state fixes a late fee of $5.00, not $10.00 (s. 174.05(5)",
        ),
        (
            ('altered: {2020-01-01: "6.00"}', 'altered: {2020-01-01: "2.00"}'),
            "licensing.tax.altered.2020-01-01",
            "below the state minimum tax of $3.00; a local tax may be higher, not lower (s. 174.05(2)",
        ),
        (
            ('unaltered: {2020-01-01: "12.00"}', 'unaltered: {2020-01-01: "6.00"}'),
            "licensing.tax.unaltered.2020-01-01",
            "s. 174.05(3)",
        ),
    ],
)
def test_the_validator_refuses_amounts_outside_the_state_limits_naming_the_section(
    tmp_path, monkeypatch, change, path, words
):
    errors = _load_errors(tmp_path, monkeypatch, SIXTH_PACK.replace(*change))
    assert any(p == path and words in r for _, p, r in errors), errors
