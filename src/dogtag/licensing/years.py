"""Which license years are on sale on a day: the year in force and, once the next year's tags
are in stock (clerks sell them in December, before January 1), the next one too. The counter
and the portal both offer exactly these years."""

from datetime import date

from django.db.models import Exists

from dogtag.licensing import law
from dogtag.licensing.models import Tag
from dogtag.registry.models import Municipality
from dogtag.rules.licensing import license_year_of


def license_years_on_sale(municipality, on: date) -> list[int]:
    return years_on_sale_and_in_stock(municipality, on)[0]


def years_on_sale_and_in_stock(municipality, on: date) -> tuple[list[int], set[int]]:
    """The years on sale, and those of them with a tag in stock, in one statement (the counter
    says so before the clerk takes the money)."""
    year = license_year_of(law.pack_of(municipality), on)
    stock = Tag.objects.filter(municipality=municipality, status=Tag.Status.IN_STOCK)
    this, ahead = (
        Municipality.objects.filter(pk=municipality.pk)
        .annotate(this=Exists(stock.filter(license_year=year)), ahead=Exists(stock.filter(license_year=year + 1)))
        .values_list("this", "ahead")
        .get()
    )
    in_stock = {y for y, stocked in ((year, this), (year + 1, ahead)) if stocked}
    return ([year, year + 1] if ahead else [year]), in_stock
