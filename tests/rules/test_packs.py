"""The packs: they load, validate, inherit, and every quote is in the law it cites."""

from __future__ import annotations

import hashlib
from datetime import date
from decimal import Decimal

import pytest

from dogtag.rules import Citation, Decision, NotSet, PackError, all_packs, load_pack, packs
from dogtag.rules.amounts import LocalAmounts, amount_at
from dogtag.rules.schema import LocalAmount


def test_the_vendored_texts_are_the_ones_their_checksums_record():
    """The ordinance texts live in the repository (law/texts/) so a clone needs nothing beside it;
    SHA256SUMS records them as vendored, so an accidental edit of the law fails here. Re-vendoring a
    text is `sha256sum *.txt *.md > SHA256SUMS` in that folder."""
    lines = (packs.TEXTS / "SHA256SUMS").read_text().splitlines()
    recorded = {name.lstrip("*"): digest for digest, name in (line.split(None, 1) for line in lines if line)}
    present = sorted(p.name for p in packs.TEXTS.iterdir() if p.name != "SHA256SUMS")
    assert present == sorted(recorded)
    for name in present:
        assert hashlib.sha256((packs.TEXTS / name).read_bytes()).hexdigest() == recorded[name], name
    assert {p.meta.text for p in all_packs()} <= set(present)


def test_it_loads_every_pack_once():
    first = all_packs()
    assert [p.id for p in first] == packs.pack_ids()
    five = ["wi", "wi-benton", "wi-cedarburg", "wi-river-hills", "wi-sampson", "wi-webster"]
    assert [p for p in packs.pack_ids() if (packs.LAW / f"{p}.yaml").exists()] == five
    assert all(a is b for a, b in zip(first, all_packs(), strict=True))
    assert all(p.chain[0] == "wi" for p in first)


def test_every_citation_names_its_jurisdiction_and_its_quote_is_in_that_text():
    for pack in all_packs():
        for path, origin, cites in pack.provisions():
            assert cites, f"{pack.id}: {path} has no citation"
            source = packs.normalise(load_pack(origin).text)
            for cite in cites:
                assert cite.citation.jurisdiction == origin
                assert packs.normalise(cite.quote) in source


def test_a_municipal_provision_overrides_the_states():
    wi, cedarburg = load_pack("wi"), load_pack("wi-cedarburg")
    assert cedarburg.licensing.tax.altered.at(date(2025, 1, 1)) == Decimal("5.00")
    assert cedarburg.origins[("licensing", "tax")] == "wi-cedarburg"
    assert cedarburg.origins[("licensing", "minimum_tax")] == "wi"
    assert wi.licensing.tax.altered.at(date(2025, 1, 1)) == Decimal("3.00")


def test_a_local_amount_nobody_set_is_not_set_with_its_section():
    cite = Citation("wi-benton", "§ 115-4", "late fee")
    assert amount_at(LocalAmount(local="late_fee"), date(2025, 5, 1), LocalAmounts.of({}), cite) == (
        None,
        NotSet("late_fee", cite),
    )
    local = LocalAmounts.of({"late_fee": {"2023-02-15": "10.00", "2026-01-01": None}})
    assert amount_at(LocalAmount(local="late_fee"), date(2025, 5, 1), local, cite) == (Decimal("10.00"), None)
    assert amount_at(LocalAmount(local="late_fee"), date(2023, 2, 14), local, cite)[0] is None
    assert amount_at(LocalAmount(local="late_fee"), date(2026, 1, 1), local, cite)[0] is None


def test_a_decision_is_plain_json():
    d = Decision(
        {"tax": Decimal("2.5"), "on": date(2025, 7, 2), "list": (Decimal("1"),)},
        (Citation("wi", "s. 174.05(2)", "q"),),
        ("n",),
        (NotSet("k", Citation("wi", "s", "q")),),
    )
    assert d.to_json() == {
        "value": {"tax": "2.50", "on": "2025-07-02", "list": ["1.00"]},
        "citations": [{"jurisdiction": "wi", "section": "s. 174.05(2)", "quote": "q"}],
        "notes": ["n"],
        "not_set": [{"key": "k", "citation": {"jurisdiction": "wi", "section": "s", "quote": "q"}}],
        "unconfirmed": [],
        "status": "answered",
        "text_incomplete": [],
        "readings": [],
    }


GOOD = """id: wi-test
name: Test
county: Nowhere
inherits: wi
text: benton-wi.txt
"""
LATE_FEE = """licensing:
  late_fee:
    amount: {2000-01-01: "5.00"}
    renewal_before: {month: 4, day: 1}
    acquired_within: {days: 30}
    cite: {section: "§ 115-4", quote: "QUOTE"}
"""
REAL_QUOTE = "assess and collect a late fee"


@pytest.fixture
def law(tmp_path, monkeypatch):
    """A law folder holding the real packs plus one test pack, and a fresh cache."""
    for p in packs.LAW.glob("*.yaml"):
        (tmp_path / p.name).write_text(p.read_text())
    monkeypatch.setattr(packs, "LAW", tmp_path)
    packs.clear_cache()
    yield tmp_path
    packs.clear_cache()


def _load(law, body):
    (law / "wi-test.yaml").write_text(body)
    return packs.load_pack("wi-test")


def test_it_loads_a_good_test_pack(law):
    pack = _load(law, GOOD + LATE_FEE.replace("QUOTE", REAL_QUOTE))
    assert pack.licensing.late_fee.amount.at(date(2025, 1, 1)) == Decimal("5.00")
    assert pack.licensing.tax.altered.at(date(2025, 1, 1)) == Decimal("3.00")  # inherited


@pytest.mark.parametrize(
    "body, path, reason",
    [
        (GOOD + "licence: {}\n", "licence", "unknown section"),
        (
            GOOD + LATE_FEE.replace("QUOTE", "a quote the law never said"),
            "licensing.late_fee",
            "is not in benton-wi.txt",
        ),
        (
            GOOD + LATE_FEE.replace('    cite: {section: "§ 115-4", quote: "QUOTE"}\n', ""),
            "licensing.late_fee.cite",
            "Field required",
        ),
        (
            GOOD + LATE_FEE.replace("QUOTE", REAL_QUOTE).replace("acquired_within", "acquired_in"),
            "licensing.late_fee.acquired_in",
            "Extra inputs",
        ),
        (
            GOOD + LATE_FEE.replace("QUOTE", REAL_QUOTE).replace('"5.00"}', '"5.00", 2000-01-01: "6.00"}'),
            "",
            "duplicate key",
        ),
        (
            GOOD + LATE_FEE.replace("QUOTE", REAL_QUOTE).replace('"5.00"', "5.0"),
            "licensing.late_fee.amount.2000-01-01",
            "never a float",
        ),
        (GOOD.replace("inherits: wi", "inherits: wi-nowhere"), "inherits", "unknown pack"),
        (GOOD.replace("inherits: wi", "inherits: wi-test"), "inherits", "inheritance cycle"),
        (GOOD.replace("id: wi-test", "id: wi-other"), "id", "does not match"),
    ],
)
def test_it_rejects_a_bad_pack_naming_file_path_and_reason(law, body, path, reason):
    with pytest.raises(PackError) as exc:
        _load(law, body)
    assert exc.value.file == "wi-test.yaml"
    assert any(f == "wi-test.yaml" and p == path and reason in r for f, p, r in exc.value.errors), exc.value.errors


FURTHER = """    choice: "a choice"
    reading:
      other: {choice: "another", changes: "something"}
      further:
        - choice: "a third"
          changes: "something else"
          set: {cite: {section: "s. 174.042(4)", quote: "QUOTE"}}
"""


def test_a_further_readings_price_quotes_words_of_the_packs_text_or_one_it_inherits(law):
    body = GOOD + LATE_FEE.replace("QUOTE", REAL_QUOTE) + FURTHER
    statute = "the owner shall forfeit not less than $25 nor more than $100 for the first offense"
    pack = _load(law, body.replace("QUOTE", statute))
    assert len(pack.licensing.late_fee.reading.further) == 1
    packs.clear_cache()
    with pytest.raises(PackError) as exc:
        _load(law, body.replace("QUOTE", "words no text holds"))
    assert ("wi-test.yaml", "licensing.late_fee.reading.further.0") in [(f, p) for f, p, _ in exc.value.errors]
