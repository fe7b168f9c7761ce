"""The licensing work the worker runs (licensing/actions/ does it; these name it for the queue)."""

from datetime import timedelta

from django.conf import settings

from dogtag.lib import dates
from dogtag.licensing import actions, law
from dogtag.licensing.actions import merge_renewal_run, print_renewal_chunk  # noqa: F401 (the queue's names)
from dogtag.registry.models import Municipality
from dogtag.rules.licensing import license_year_of


def send_renewal_reminders() -> str:
    """Daily on the schedule (DOGTAG_SCHEDULE_RENEWAL_REMINDERS): the reminders owed today, then
    every one not yet delivered. Idempotent: a second run, or a run redelivered after a worker was
    killed, writes and sends nothing twice (licensing/actions/reminders.py)."""
    on = dates.today()
    written = actions.sweep_renewal_reminders(on)
    done = actions.deliver_renewal_reminders(on)
    return (
        f"{written} reminders owed; {done['emailed']} emailed, {done['printed']} printed, {done['texted']} texted, "
        f"{done['withdrawn']} withdrawn"
    )


def store_tag_return_lists() -> str:
    """Daily on the schedule (DOGTAG_SCHEDULE_TAG_RETURN_LISTS): each municipality's list of tags
    to return is stored from DOGTAG_TAG_RETURN_LEAD_DAYS before the date its law sets (December 31
    under s. 174.07(3)(b)), once; a worker down that day stores it the next."""
    today = dates.today()
    stored = []
    for municipality in Municipality.objects.all():
        year = license_year_of(law.pack_of(municipality), today)
        for y in (year - 1, year):
            expiry = law.ask(municipality, "license_expiry", {"issued_on": today, "license_year": y}, today, {})
            return_by = expiry.value.unused_tags_return_by
            if return_by and today >= return_by - timedelta(days=settings.DOGTAG_TAG_RETURN_LEAD_DAYS):
                if actions.store_tag_return_list(municipality=municipality, license_year=y, on=today):
                    stored.append(f"{municipality.slug} {y}")
    return f"stored: {', '.join(stored) or 'none due'}"
