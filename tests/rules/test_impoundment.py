"""The impoundment questions' refusals of facts that contradict each other."""

from datetime import date

import pytest

from dogtag.rules import ask


def test_a_notice_received_before_it_was_given_is_refused_naming_the_field_and_section():
    facts = {"impounded_on": "2026-02-25", "notice_on": "2026-02-26", "notice_received_on": "2026-02-24"}
    with pytest.raises(ValueError, match=r"notice_received_on 2026-02-24 is before notice_on 2026-02-26.*§ 98-7"):
        ask("wi-webster", "impoundment_holding", facts, date(2026, 3, 2))


def test_a_notice_received_the_day_it_was_given_is_answered():
    facts = {"impounded_on": "2026-02-25", "notice_on": "2026-02-26", "notice_received_on": "2026-02-26"}
    assert ask("wi-webster", "impoundment_holding", facts, date(2026, 3, 2)).value.claim_by == date(2026, 3, 5)
