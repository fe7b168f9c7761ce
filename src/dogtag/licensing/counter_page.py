"""The counter page's first read, compiled once (lib/compiled.py): the animal, its municipality,
and which of the license years that may be on sale have tags in stock — one statement where the
ORM took two, each compiled on every page."""

from datetime import date

from django.db.models import OuterRef, Subquery
from django.http import Http404

from dogtag.accounts.scope import municipality_ids
from dogtag.lib.compiled import INT_MARKERS, Compiled, instance, model_columns
from dogtag.licensing.models import Tag
from dogtag.licensing.years import years_to_ask
from dogtag.registry.models import Animal, Municipality

STOCK_YEARS = ("before", "this", "after")  # years_to_ask(on), in order


def _build(pk, before, this, after):
    # The year's next tag, as the issue takes it (ORDER BY serial LIMIT 1), or None: asked so, the
    # database reads it from the stock's index. Asked as EXISTS, it scanned the table from its
    # start, past every tag already issued (60k at a county's counter late in the year).
    stock = Tag.objects.filter(municipality_id=OuterRef("municipality_id"), status=Tag.Status.IN_STOCK)
    years = zip(STOCK_YEARS, (before, this, after), strict=True)
    return (
        Animal.objects.filter(pk=pk)
        .order_by()
        .annotate(
            **{
                name: Subquery(stock.filter(license_year=year).order_by("serial").values("serial")[:1])
                for name, year in years
            }
        )
        .values_list(*model_columns(Animal), *model_columns(Municipality, "municipality__"), *STOCK_YEARS)
    )


_ANIMAL = Compiled(_build, pk=INT_MARKERS[0], before=INT_MARKERS[1], this=INT_MARKERS[2], after=INT_MARKERS[3])


def animal_and_stock(user, pk: int, on: date) -> tuple[Animal, set[int]]:
    """The animal (its municipality with it) if the user serves its municipality, else 404, as
    `get_for_user` answers; and those of `years_to_ask(on)` with a tag in stock there."""
    years = years_to_ask(on)
    rows = _ANIMAL.rows(pk=pk, **dict(zip(STOCK_YEARS, years, strict=True)))
    animal = instance(Animal, rows[0]) if rows else None
    if animal is None or animal.municipality_id not in municipality_ids(user):
        raise Http404("No such record in the municipalities you serve.")
    row = rows[0]
    animal.municipality = instance(Municipality, row[len(model_columns(Animal)) :])
    stocked = {year for year, next_tag in zip(years, row[-len(STOCK_YEARS) :], strict=True) if next_tag is not None}
    return animal, stocked
