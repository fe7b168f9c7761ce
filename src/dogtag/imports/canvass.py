"""The canvassing list of a clinic's file: the animals its certificates showed vaccinated that
have no license in force, each with its owner on record, how the invitation reaches the owner (an
email, or a printed letter for an owner without an email address) and the fee the law computes
today (licensing/owed.py)."""

from django.shortcuts import get_object_or_404
from django.urls import reverse

from dogtag.imports.models import ClinicFile, LicenseInvitation
from dogtag.lib.dates import today
from dogtag.lib.tables import Column, Report, table
from dogtag.lib.web import municipality_for
from dogtag.licensing import law
from dogtag.licensing.facts import read_facts
from dogtag.licensing.models import License, own_or_covering
from dogtag.licensing.owed import what_is_owed
from dogtag.registry.models import Animal
from dogtag.rules.licensing import license_year_of


def license_year(municipality, on) -> int:
    return license_year_of(law.pack_of(municipality, on), on)


def unlicensed(clinic_file, year: int):
    """The file's vaccinated animals still active with no license in force for `year`: neither
    their own nor a multiple-dog license covering them."""
    ids = (clinic_file.summary or {}).get("unlicensed_animals", [])
    in_force = License.objects.filter(own_or_covering(ids), license_year=year, voided_at=None)
    licensed = set(in_force.values_list("animal_id", flat=True)) | set(
        License.covered_animals.through.objects.filter(license__in=in_force).values_list("animal_id", flat=True)
    )
    return (
        Animal.objects.filter(municipality_id=clinic_file.municipality_id, pk__in=ids, status=Animal.Status.ACTIVE)
        .exclude(pk__in=licensed)
        .select_related("municipality")
        .order_by("name", "pk")
    )


def owner_of(animal, on):
    """The owner the invitation goes to: the latest owner on record, as the renewal run picks."""
    from dogtag.licensing.reminders import current_owners
    from dogtag.registry.models import Person

    person = dict(current_owners(on).filter(animal_id=animal.pk)).get(animal.pk)
    return Person.objects.filter(pk=person).first() if person else None


def owed_today(animal, year: int, on):
    return what_is_owed(read_facts(animal, on, year))


def figures(owed) -> dict:
    """What an invitation states: the fee to license today with its citations, or no fee when the
    law's figure cannot be computed (an amount left to the fee schedule and not set, no birth
    date): the letter then says so."""
    unknown = not owed.lines or any(r.field in ("fee_schedule", "birth_date", "species") for r in owed.refusals)
    citations = tuple(dict.fromkeys(c for line in owed.lines for c in line.citations))
    return {"tax": None if unknown else owed.total, "due_by": None, "citations": citations}


class Row:
    """A line of the list: the animal, its owner, the channel, the fee, the invitation if sent."""

    def __init__(self, animal, year, on, invitations):
        self.animal = animal
        self.owner = owner_of(animal, on)
        self.fee = figures(owed_today(animal, year, on))["tax"]
        self.invitation = invitations.get(animal.pk)

    @property
    def channel(self) -> str:
        if self.invitation:
            return self.invitation.get_channel_display()
        if self.owner is None:
            return "No owner on record"
        return "Email" if self.owner.email else "Printed letter"

    @property
    def sent(self):
        return self.invitation.sent_at if self.invitation else None


class Rows:
    """The list's rows over the queryset, built a page (or the whole export) at a time."""

    def __init__(self, animals, year, on):
        self.animals, self.year, self.on = animals, year, on

    def _rows(self, animals):
        animals = list(animals)
        invitations = {
            i.animal_id: i
            for i in LicenseInvitation.objects.filter(animal_id__in=[a.pk for a in animals], license_year=self.year)
        }
        return [Row(a, self.year, self.on, invitations) for a in animals]

    def count(self):
        return self.animals.count()

    def __len__(self):
        return self.count()

    def __getitem__(self, index):
        return self._rows(self.animals[index])

    def __iter__(self):
        return iter(self._rows(self.animals))


LIST = [
    Column("Animal", "animal.name", link=lambda r: reverse("animal", args=[r.animal.pk])),
    Column("Owner", "owner.name"),
    Column("Invited by", "channel"),
    Column("Fee today", "fee"),
    Column("Invitation sent", "sent"),
]


def canvass_list(request, slug, pk, roles) -> Report:
    """The list page's report (lib/tables.py `exports`), with the file and the license year."""
    m = municipality_for(request, slug, roles)
    clinic_file = get_object_or_404(ClinicFile.objects.select_related("clinic"), municipality=m, pk=pk)
    on = today()
    year = license_year(m, on)
    rows = Rows(unlicensed(clinic_file, year), year, on)
    report = Report(
        "Vaccinated, not licensed",
        f"{clinic_file.clinic}: {clinic_file.file_name}",
        [table(f"No {year} license", LIST, rows, empty="Every animal of this file is licensed.")],
        municipality=m,
    )
    report.clinic_file, report.license_year = clinic_file, year
    return report
