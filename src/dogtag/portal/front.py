"""The front door: whoever opens Dogtag's address without an account
sees each municipality's licensing — apply or renew, with the animals its ordinance licenses —,
the found-dog lookup and the clerk's office hours; the staff login is one link away. Staff who
are logged in go on to their own home."""

from dataclasses import dataclass

from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy

from dogtag.accounts.models import Role
from dogtag.accounts.scope import municipalities, municipality_ids
from dogtag.licensing import law
from dogtag.portal.forms import RenewalCodeForm
from dogtag.portal.models import MunicipalityContact
from dogtag.registry.models import Municipality

NOT_OFFICERS = tuple(r for r in Role if r != Role.OFFICER)
SPECIES_PLURAL = {"dog": gettext_lazy("dogs"), "cat": gettext_lazy("cats")}
LICENSES = {
    ("dog",): gettext_lazy("Dog licenses"),
    ("cat",): gettext_lazy("Cat licenses"),
    ("dog", "cat"): gettext_lazy("Dog and cat licenses"),
    ("cat", "dog"): gettext_lazy("Cat and dog licenses"),
}


@dataclass
class Office:
    municipality: Municipality
    species: list[str]
    contact: MunicipalityContact | None

    @property
    def licenses(self) -> str:
        """ "Dog licenses", "Dog and cat licenses": what the pack licenses, in its order."""
        return str(LICENSES.get(tuple(self.species)) or " and ".join(self.species).capitalize() + " licenses")

    @property
    def licensed(self) -> str:
        plurals = [str(SPECIES_PLURAL.get(s, s)) for s in self.species]
        return (
            plurals[0]
            if len(plurals) == 1
            else gettext("%(first)s and %(second)s")
            % {
                "first": ", ".join(plurals[:-1]),
                "second": plurals[-1],
            }
        )


def offices() -> list[Office]:
    contacts = {c.municipality_id: c for c in MunicipalityContact.objects.all()}
    found = []
    for municipality in Municipality.objects.order_by("name"):
        species = list(law.pack_of(municipality).licensing.species.species)
        found.append(Office(municipality, species, contacts.get(municipality.pk)))
    return found


def front_door(request):
    if request.user.is_authenticated:
        served = list(municipalities(request.user))
        # An officer serving several municipalities starts at their cases, across all of them.
        officer_only = not municipality_ids(request.user, NOT_OFFICERS)
        if len(served) > 1 and officer_only:
            return redirect("my-cases")
        if len(served) == 1:
            return redirect("municipality", slug=served[0].slug)
        return render(request, "registry/home.html", {"municipalities": served})
    return render(request, "portal/front.html", {"offices": offices(), "code_form": RenewalCodeForm()})
