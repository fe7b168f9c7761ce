"""The registry's lists as tables: what the search finds, every row of it in the CSV."""

from django.db.models import Q

from dogtag.accounts.scope import scoped
from dogtag.lib.tables import Column, Report, table
from dogtag.registry.models import Animal, Person, Premises

ANIMALS = [
    Column("Name", "name"),
    Column("Animal", lambda a: f"{a.get_species_display()}, {a.breed} {a.color}".strip()),
    Column("Microchip", "microchip"),
    Column("Municipality", "municipality.name"),
    Column("Status", lambda a: a.get_status_display()),
]
PEOPLE = [Column("Name", "name"), Column("Address", "address"), Column("Municipality", "municipality.name")]
PREMISES = [
    Column("Address", "street"),
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
    return Report(
        "Search",
        q,
        [table("Animals", ANIMALS, animals), table("People", PEOPLE, people), table("Premises", PREMISES, premises)],
    )
