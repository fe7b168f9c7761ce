"""The registry's lists as tables: what the search finds, every row of it in the CSV."""

from django.db.models import Q
from django.urls import reverse

from dogtag.accounts.scope import scoped
from dogtag.lib.tables import Column, Report, table
from dogtag.registry.models import Animal, Person, Premises


def _to(name):
    return lambda obj: reverse(name, args=[obj.pk])


ANIMALS = [
    Column("Name", "name", link=_to("animal")),
    Column("Animal", lambda a: f"{a.get_species_display()}, {a.breed_and_color}"),
    Column("Microchip", "microchip"),
    Column("Municipality", "municipality.name"),
    Column("Status", lambda a: a.get_status_display()),
]
PEOPLE = [
    Column("Name", "name", link=_to("person")),
    Column("Address", "address"),
    Column("Municipality", "municipality.name"),
]
PREMISES = [
    Column("Address", "street", link=_to("premises")),
    Column("Use", lambda p: p.get_use_display()),
    Column("Municipality", "municipality.name"),
]


def found(user, q: str):
    """The animals, people and premises matching `q` in the municipalities the user serves."""
    if len(q) < 2:
        return Animal.objects.none(), Person.objects.none(), Premises.objects.none()
    animals = (
        scoped(user, Animal.objects)
        .filter(
            Q(name__icontains=q)
            | Q(microchip__iexact=q)
            | Q(vaccinations__rabies_tag_number__iexact=q)
            | Q(vaccinations__duplicate_tags__tag_number__iexact=q)
        )
        .select_related("municipality")
        .distinct()
        .order_by("name", "pk")
    )
    people = (
        scoped(user, Person.objects)
        .filter(Q(name__icontains=q) | Q(street__icontains=q))
        .select_related("municipality")
        .order_by("name", "pk")
    )
    premises = (
        scoped(user, Premises.objects)
        .filter(street__icontains=q)
        .select_related("municipality")
        .order_by("street", "pk")
    )
    return animals, people, premises


def search(request) -> Report:
    q = request.GET.get("q", "").strip()
    animals, people, premises = found(request.user, q)
    report = Report(
        "Search",
        q,
        [
            table("Animals", ANIMALS, animals, empty="No animal matches."),
            table("People", PEOPLE, people, empty="No person matches."),
            table("Premises", PREMISES, premises, empty="No premises match."),
        ],
    )
    report.q = q
    return report
