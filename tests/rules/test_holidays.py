"""The legal holidays are pinned in wi.yaml; the `holidays` package's Wisconsin calendar differs
from them exactly as the pack's choice says, so a package upgrade cannot move a deadline."""

from datetime import date

import holidays

from dogtag.rules.dates import is_business_day, legal_holidays


def test_the_pinned_list_differs_from_the_package_only_where_the_pack_says():
    for year in range(2024, 2031):
        ours = set(legal_holidays(year))
        package = holidays.US(subdiv="WI", years=year)
        theirs = set(package)
        extra = {d: package.get(d) for d in theirs - ours}
        assert all(("Susan B. Anthony" in n or "Juneteenth" in n or "observed" in n) for n in extra.values()), extra
        assert {legal_holidays(year)[d] for d in ours - theirs} <= {"Columbus Day"}, year


def test_a_friday_before_a_saturday_holiday_is_a_business_day():
    assert date(2026, 7, 4).weekday() == 5
    assert is_business_day(date(2026, 7, 3))
    assert not is_business_day(date(2026, 10, 12))  # Columbus Day
    assert is_business_day(date(2028, 2, 15))  # Susan B. Anthony Day, a Tuesday
