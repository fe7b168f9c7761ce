"""Which renewal reminders are owed (the writers are in licensing/actions/reminders.py): one
`lead_days` from a license's `expires_on`, the lead times per municipality in
DOGTAG_RENEWAL_REMINDER_DAYS (Dogtag's courtesy, no pack sets them). The sweep is one
INSERT ... SELECT over every municipality; the unique (animal, license year, lead time) makes a
second sweep add nothing."""

from datetime import date, timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Exists, F, Max, OuterRef, Q

from dogtag.lib.meta import column, db_table, related_model
from dogtag.licensing.models import License, RenewalReminder
from dogtag.registry.models import Animal, Ownership, Person


def windows(municipalities, on: date) -> list[tuple[int, int, date, date]]:
    """(municipality, lead, first, last): a license ending from `first` to `last` is owed the
    reminder of that lead on `on` (its day is at most DOGTAG_RENEWAL_REMINDER_LATE_DAYS past). A
    municipality's leads are days from a license's end (negative: before it; positive: after)."""
    days, late = settings.DOGTAG_RENEWAL_REMINDER_DAYS, settings.DOGTAG_RENEWAL_REMINDER_LATE_DAYS
    return [
        (m.pk, lead, on - timedelta(days=lead + late), on - timedelta(days=lead))
        for m in municipalities
        for lead in days.get(m.slug, days[""])
    ]


def current_owners(on: date):
    """(animal, person) of each animal's owner on `on`: the latest ownership begun, as the renewal
    run picks it (one with no later one: a join, not a lookup per animal)."""
    owning = Ownership.objects.current(on).filter(role=Ownership.Role.OWNER)
    later = owning.filter(animal_id=OuterRef("animal_id")).filter(
        Q(started_on__gt=OuterRef("started_on")) | Q(started_on=OuterRef("started_on"), pk__gt=OuterRef("pk"))
    )
    return (
        owning.exclude(Exists(later))
        .annotate(o_animal=F("animal_id"), o_person=F("person_id"))
        .values_list("o_animal", "o_person")
        .order_by()
    )


def owner_join(owners, animal: str) -> tuple[str, list, str]:
    """JOIN ... of each animal's owner (`owners`: current_owners) on the SQL column `animal` as
    `o`, the person as `p` and their opt-out as `r`; its parameters; and the SQL of whether the
    person is emailed (renewals.wants_email)."""
    q = connection.ops.quote_name
    owners_sql, params = owners.query.sql_with_params()
    opt_out = related_model(Person, "reminder_opt_out")
    sql = (
        f"JOIN ({owners_sql}) o ON o.o_animal = {animal} "
        f"JOIN {q(db_table(Person))} p ON p.{q('id')} = o.o_person "
        f"LEFT JOIN {q(db_table(opt_out))} r ON r.{q(column(opt_out, 'person'))} = p.{q('id')}"
    )
    return sql, list(params), f"(p.{q('email')} <> '' AND r.{q('id')} IS NULL)"


def sweep_insert(municipalities, on: date, created_at) -> tuple[str, list] | None:
    """The sweep's INSERT ... SELECT, or None when no municipality has a lead time."""
    rows = windows(municipalities, on)
    if not rows:
        return None
    q = connection.ops.quote_name
    pg = connection.vendor == "postgresql"
    as_date = "CAST(%s AS date)" if pg else "%s"  # SQLite keeps dates as ISO text
    leads = " UNION ALL ".join(
        f"SELECT CAST(%s AS integer) AS m, CAST(%s AS integer) AS lead, {as_date} AS lo, {as_date} AS hi" for _ in rows
    )
    lead_params = [v for m, lead, lo, hi in rows for v in (m, lead, lo.isoformat(), hi.isoformat())]
    due_on = "l.expires_on + d.lead" if pg else "date(l.expires_on, d.lead || ' days')"
    owners, owners_params, emailed = owner_join(current_owners(on), f"l.{q('animal_id')}")
    license_, animal = q(db_table(License)), q(db_table(Animal))
    sql = (
        f"INSERT INTO {q(db_table(RenewalReminder))} (municipality_id, animal_id, license_id, license_year, lead_days, "
        "due_on, person_id, channel, created_at, withdrawn_because) "
        f"SELECT l.{q('municipality_id')}, l.{q('animal_id')}, l.{q('id')}, l.{q('license_year')}, d.lead, "
        f"{due_on}, o.o_person, CASE WHEN {emailed} THEN %s ELSE %s END, %s, %s "
        f"FROM {license_} l "
        f"JOIN ({leads}) d ON d.m = l.{q('municipality_id')} AND l.{q('expires_on')} BETWEEN d.lo AND d.hi "
        f"JOIN {animal} a ON a.{q('id')} = l.{q('animal_id')} AND a.{q('status')} = %s "
        f"{owners} "
        f"WHERE l.{q('voided_at')} IS NULL AND l.{q('kind')} = %s "
        f"AND NOT EXISTS (SELECT 1 FROM {license_} t WHERE t.{q('animal_id')} = l.{q('animal_id')} "
        f"AND t.{q('license_year')} > l.{q('license_year')} AND t.{q('voided_at')} IS NULL) "
        "ON CONFLICT DO NOTHING"
    )
    return sql, [
        RenewalReminder.Channel.EMAIL.value,
        RenewalReminder.Channel.PAPER.value,
        connection.ops.adapt_datetimefield_value(created_at),
        "",
        *lead_params,
        Animal.Status.ACTIVE.value,
        *owners_params,
        License.Kind.INDIVIDUAL.value,
    ]


def withdrawn_because(reminders, on: date) -> dict[int, str]:
    """Why each reminder that is no longer owed is not sent (reminder id -> reason): the animal is
    licensed for a later year, is no longer active (died, moved away, transferred, missing), or is
    no longer this person's. Three queries for a batch, whatever its size."""
    animals = {r.animal_id for r in reminders}
    latest = dict(
        License.objects.filter(animal_id__in=animals, voided_at=None)
        .values("animal_id")
        .annotate(Max("license_year"))
        .values_list("animal_id", "license_year__max")
    )
    owners = dict(current_owners(on).filter(animal_id__in=animals))
    status = dict(Animal.objects.filter(pk__in=animals).values_list("pk", "status"))
    reasons = {}
    for r in reminders:
        if latest.get(r.animal_id, 0) > r.license_year:
            reasons[r.pk] = "licensed again"
        elif status[r.animal_id] != Animal.Status.ACTIVE:
            reasons[r.pk] = f"the animal is reported {Animal.Status(status[r.animal_id]).label.lower()}"
        elif owners.get(r.animal_id) != r.person_id:
            reasons[r.pk] = "no longer this person's animal"
    return reasons
