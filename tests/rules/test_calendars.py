"""The two calendars (s. 995.20 legal holidays; s. 801.15(1)(a) court holidays) and the election days,
every year 2020-2035, against the year-by-year list in calendars/wisconsin-2020-2035.yaml."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest

from dogtag.rules.calendars import court_holidays, elections, is_court_day, is_legal_holiday, legal_holidays
from dogtag.rules.packs import read_yaml

YEARS = read_yaml(Path(__file__).parent / "calendars" / "wisconsin-2020-2035.yaml")


def test_the_list_covers_every_year_2020_to_2035():
    assert sorted(YEARS) == list(range(2020, 2036))


@pytest.mark.parametrize("year", sorted(YEARS))
def test_the_legal_holidays_of_the_year(year):
    assert legal_holidays(year) == YEARS[year]["legal_holidays"]


@pytest.mark.parametrize("year", sorted(YEARS))
def test_the_court_holidays_are_the_legal_holidays_and_the_state_offices_days_and_good_friday(year):
    expected = {**YEARS[year]["legal_holidays"], **YEARS[year]["more_court_holidays"]}
    assert court_holidays(year) == dict(sorted(expected.items()))


@pytest.mark.parametrize("year", sorted(YEARS))
def test_the_election_days_of_the_year(year):
    assert elections(year) == YEARS[year]["elections"]


def test_december_24_and_31_are_court_holidays_but_not_legal_holidays():
    for year in YEARS:
        for day in (date(year, 12, 24), date(year, 12, 31)):
            assert not is_legal_holiday(day)
            assert not is_court_day(day)


def test_the_partisan_primary_and_general_election_are_legal_holidays_only_in_even_years():
    assert is_legal_holiday(date(2026, 11, 3)) and is_legal_holiday(date(2026, 8, 11))
    assert not is_legal_holiday(date(2027, 11, 2)) and not is_legal_holiday(date(2027, 8, 10))
    # the spring election is not a legal holiday outside a 1st class city
    assert not is_legal_holiday(date(2026, 4, 7))


def test_a_sunday_holiday_makes_the_monday_a_legal_holiday():
    assert date(2023, 1, 1).weekday() == 6 and is_legal_holiday(date(2023, 1, 2))
    assert date(2022, 6, 19).weekday() == 6 and is_legal_holiday(date(2022, 6, 20))
    # a Saturday holiday stays on the Saturday: the Friday before is an ordinary day
    assert date(2026, 7, 4).weekday() == 5 and not is_legal_holiday(date(2026, 7, 3))


def test_good_friday_is_a_court_holiday_not_a_legal_holiday():
    good_friday = date(2026, 4, 3)
    assert not is_legal_holiday(good_friday) and not is_court_day(good_friday)
    assert is_court_day(good_friday - timedelta(days=1))
