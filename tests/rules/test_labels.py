"""Labels on the clerk's and the resident's screens carry the pack's figures, not legal words
written into templates ("before April 1", "within 30 days")."""

from datetime import date

import pytest

from dogtag.rules import ask, load_pack, packs
from dogtag.rules.licensing import late_fee_trigger_label

TEXT = ("§ 1 A late fee of $5 is due from an owner who failed to obtain a license prior to March 15 "
        "or within 20 days of acquiring ownership of a licensable dog.\n")
PACK = """id: wi-labels
name: Test Labels
county: Nowhere
inherits: wi
text: labels.txt
licensing:
  late_fee:
    amount: {2020-01-01: "5.00"}
    renewal_before: {month: 3, day: 15}
    acquired_within: {days: 20}
    cite: {section: "§ 1", quote: "A late fee of $5 is due from an owner who failed to obtain a license"}
"""


@pytest.fixture
def labels_pack(tmp_path, monkeypatch):
    (tmp_path / "texts").mkdir()
    (tmp_path / "texts" / "labels.txt").write_text(TEXT)
    (tmp_path / "wi-labels.yaml").write_text(PACK)
    monkeypatch.setenv(packs.EXTRA_LAW_ENV, str(tmp_path))
    packs.clear_cache()
    yield load_pack("wi-labels")
    packs.clear_cache()


def test_the_late_fee_triggers_read_the_packs_own_dates_and_periods(labels_pack):
    assert late_fee_trigger_label(labels_pack, "renewal") == "not licensed before March 15"
    assert late_fee_trigger_label(labels_pack, "acquisition") == "not licensed within 20 days of acquiring"
    assert late_fee_trigger_label(labels_pack, "licensable_age") == "not licensed by 5 months of age"
    fee = ask("wi-labels", "late_fee", {"born_on": "2020-01-01"}, date(2026, 3, 15)).to_json()["value"]
    assert (fee["amount"], fee["trigger"], fee["deadline"]) == ("5.00", "renewal", "2026-03-14")


def test_the_five_packs_say_april_1_and_30_days_because_their_texts_do():
    for pack_id in ("wi-benton", "wi-webster", "wi-sampson", "wi-cedarburg", "wi-river-hills"):
        pack = load_pack(pack_id)
        assert late_fee_trigger_label(pack, "renewal") == "not licensed before April 1"
        assert late_fee_trigger_label(pack, "acquisition") == "not licensed within 30 days of acquiring"
