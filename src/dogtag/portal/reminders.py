"""Who is owed a rabies reminder (the writer is portal/actions.py send_rabies_reminders): the
owner, DOGTAG_RABIES_REMINDER_DAYS before the animal's latest certificate runs out. The lead
time is Dogtag's own courtesy, not a legal number (no rule pack sets one); the due date itself
is the engine's `rabies_revaccination_due`."""

from datetime import date, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef

from dogtag.lib import links
from dogtag.licensing import law
from dogtag.outbox import mail
from dogtag.portal.models import RabiesReminder, ReminderOptOut
from dogtag.registry.models import Animal, Ownership, RabiesVaccination


def candidates(on: date, horizon: date):
    """Each active dog's or cat's latest certificate, not yet reminded, that may fall due by the
    horizon. The certificate's own expiration date bounds the engine's due date from above
    (an initial shot may fall due sooner), so the engine sorts out the rest."""
    later = RabiesVaccination.objects.filter(
        animal_id=OuterRef("animal_id"), voided_at=None, vaccinated_on__gt=OuterRef("vaccinated_on")
    )
    return (
        RabiesVaccination.objects.filter(
            voided_at=None,
            animal__status=Animal.Status.ACTIVE,
            animal__species__in=("dog", "cat"),
            expires_on__gte=on,
        )
        .exclude(Exists(later))
        .exclude(Exists(RabiesReminder.objects.filter(vaccination_id=OuterRef("pk"))))
        .select_related("animal__municipality")
    )


def _initial(ids) -> set[int]:
    counts = {}
    for animal_id in RabiesVaccination.objects.filter(animal_id__in=ids, voided_at=None).values_list(
        "animal_id", flat=True
    ):
        counts[animal_id] = counts.get(animal_id, 0) + 1
    return {a for a, n in counts.items() if n == 1}


def due(on: date, progress=None):
    """(certificate, owner, due Decision, rendered email) for each reminder owed on `on`."""
    horizon = on + timedelta(days=settings.DOGTAG_RABIES_REMINDER_DAYS)
    rows = list(candidates(on, horizon))
    initial = _initial([v.animal_id for v in rows])
    owners = {}
    for o in (
        Ownership.objects.current(on)
        .filter(animal_id__in=[v.animal_id for v in rows], role=Ownership.Role.OWNER)
        .exclude(person__email="")
        .exclude(Exists(ReminderOptOut.objects.filter(person_id=OuterRef("person_id"))))
        .select_related("person")
        .order_by("started_on")
    ):
        owners[o.animal_id] = o.person
    bar = progress(len(rows)) if progress else None
    for v in rows:
        if bar:
            bar.advance()
        person = owners.get(v.animal_id)
        if person is None:
            continue
        decision = law.ask(
            v.animal.municipality,
            "rabies_revaccination_due",
            {
                "species": v.animal.species,
                "vaccinated_on": v.vaccinated_on,
                "initial": v.animal_id in initial,
                "certificate_expires_on": v.expires_on,
            },
            on,
            {},
        )
        if not decision.value.applies or not (on <= decision.value.last_day <= horizon):
            continue
        email = mail.render(
            "portal/email/rabies-reminder",
            {
                "animal": v.animal,
                "person": person,
                "vaccination": v,
                "due": decision,
                "municipality": v.animal.municipality,
                "unsubscribe_url": links.unsubscribe_url(person.pk),
            },
            language=person.language,
        )
        yield v, person, decision, email
