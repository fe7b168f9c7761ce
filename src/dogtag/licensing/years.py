"""Which license years are on sale on a day: the year in force and, once the next year's tags
are in stock (clerks sell them in December, before January 1), the next one too. The counter
and the portal both offer exactly these years."""

from datetime import date

from dogtag.licensing import law
from dogtag.licensing.models import Tag
from dogtag.rules.licensing import license_year_of


def license_years_on_sale(municipality, on: date) -> list[int]:
    year = license_year_of(law.pack_of(municipality), on)
    ahead = Tag.objects.filter(municipality=municipality, license_year=year + 1, status=Tag.Status.IN_STOCK)
    return [year, year + 1] if ahead.exists() else [year]
