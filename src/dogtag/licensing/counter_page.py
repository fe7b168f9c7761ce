"""The counter page's first read: the animal, its municipality, and which of the license years
that may be on sale have tags in stock, in one statement."""

from datetime import date

from django.db.models import OuterRef, Subquery
from django.http import Http404

from dogtag.accounts.scope import municipality_ids
from dogtag.licensing.models import Tag
from dogtag.licensing.years import years_to_ask
from dogtag.registry.models import Animal


def with_stock(pk: int, years):
    """The animal with its municipality, and for each of `years` its next tag in stock (`next_tag_<i>`,
    or None), as the issue takes it (ORDER BY serial LIMIT 1), read from the stock's index."""
    stock = Tag.objects.filter(municipality_id=OuterRef("municipality_id"), status=Tag.Status.IN_STOCK)
    next_tags = {
        f"next_tag_{i}": Subquery(stock.filter(license_year=year).order_by("serial").values("serial")[:1])
        for i, year in enumerate(years)
    }
    return Animal.objects.select_related("municipality").annotate(**next_tags).filter(pk=pk)


def animal_and_stock(user, pk: int, on: date) -> tuple[Animal, set[int]]:
    """The animal (its municipality with it) if the user serves its municipality, else 404, as
    `get_for_user` answers; and those of `years_to_ask(on)` with a tag in stock there."""
    years = years_to_ask(on)
    animal = with_stock(pk, years).first()
    if animal is None or animal.municipality_id not in municipality_ids(user):
        raise Http404("No such record in the municipalities you serve.")
    return animal, {year for i, year in enumerate(years) if getattr(animal, f"next_tag_{i}") is not None}
