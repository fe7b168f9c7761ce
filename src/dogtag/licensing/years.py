"""Which license years are on sale on a day: the year in force and, once the next year's tags
are in stock (clerks sell them in December, before January 1), the next one too. The counter
and the portal both offer exactly these years."""

from datetime import date

from dogtag.licensing import law
from dogtag.licensing.models import Tag
from dogtag.rules.licensing import license_year_of


def license_years_on_sale(municipality, on: date) -> list[int]:
    year = license_year_of(law.pack_of(municipality), on)
    ahead = Tag.objects.filter(municipality=municipality, status=Tag.Status.IN_STOCK, license_year=year + 1)
    return [year, year + 1] if ahead.exists() else [year]


def preselected_year(years: list[int]) -> int:
    """The year a clerk would choose: once next year's licenses are on sale (December,
    its tags in stock), next year's — this year's license would expire December 31, within weeks,
    and carry this year's late fee."""
    return years[-1]


def why_preselected(years: list[int]) -> str:
    """Why `preselected_year` chose next year, in words; empty when there is no choice."""
    if len(years) < 2:
        return ""
    this, ahead = years[0], years[-1]
    return (
        f"{ahead} is chosen: {ahead} licenses are on sale, and a {this} license would expire on "
        f"December 31, {this}. Choose {this} only for an animal that must still be licensed for {this}."
    )


def chosen_year(request, years: list[int]) -> int:
    """The year the clerk chose among `years` (the page's year links or its form), else `preselected_year`."""
    chosen = request.POST.get("license_year") or request.GET.get("license_year") or ""
    return int(chosen) if chosen.isdigit() and int(chosen) in years else preselected_year(years)


def years_to_ask(on: date) -> tuple[int, int, int]:
    """The license years whose tag stock decides what is on sale on `on`: the year in force is
    this calendar year or the one before (`license_year_of`: a license year begins once a
    calendar year), and the year after it is on sale once its tags are in stock."""
    return on.year - 1, on.year, on.year + 1


def years_on_sale_from_stock(municipality, on: date, stocked: set[int]) -> tuple[list[int], set[int]]:
    """The years on sale, and those of them with a tag in stock, from the years of
    `years_to_ask(on)` known to have tags in stock (read with the counter's query for the animal)."""
    year = license_year_of(law.pack_of(municipality), on)
    in_stock = {y for y in (year, year + 1) if y in stocked}
    return ([year, year + 1] if year + 1 in stocked else [year]), in_stock
