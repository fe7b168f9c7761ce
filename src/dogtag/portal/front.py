"""The front door (issue 29, dead end 7): whoever opens Dogtag's address without an account
sees each municipality's licensing — apply or renew, with the animals its ordinance licenses —,
the found-dog lookup and the clerk's office hours; the staff login is one link away. Staff who
are logged in go on to their own home."""

from dataclasses import dataclass

from django.shortcuts import render

from dogtag.licensing import law
from dogtag.portal.models import MunicipalityContact
from dogtag.registry import views as registry_views
from dogtag.registry.models import Municipality

SPECIES_PLURAL = {"dog": "dogs", "cat": "cats"}


@dataclass
class Office:
    municipality: Municipality
    species: list[str]
    contact: MunicipalityContact | None

    @property
    def licenses(self) -> str:
        """"Dog licenses", "Dog and cat licenses": what the pack licenses, in its order."""
        return " and ".join(self.species).capitalize() + " licenses"

    @property
    def licensed(self) -> str:
        return " and ".join(SPECIES_PLURAL.get(s, s) for s in self.species)


def offices() -> list[Office]:
    contacts = {c.municipality_id: c for c in MunicipalityContact.objects.all()}
    found = []
    for municipality in Municipality.objects.order_by("name"):
        species = list(law.pack_of(municipality).licensing.species.species)
        found.append(Office(municipality, species, contacts.get(municipality.pk)))
    return found


def front_door(request):
    if request.user.is_authenticated:
        return registry_views.home(request)
    return render(request, "portal/front.html", {"offices": offices()})
