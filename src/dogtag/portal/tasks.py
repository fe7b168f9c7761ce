from django.utils import timezone

from dogtag.portal import reminders


def send_rabies_reminders() -> int:
    """Daily on the schedule; idempotent (one reminder per certificate), so a second run in a day
    or a run redelivered after a crash sends nothing twice."""
    return reminders.send_rabies_reminders(timezone.localdate())
