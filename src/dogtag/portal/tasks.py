from dogtag.lib.dates import today
from dogtag.portal import actions


def send_rabies_reminders() -> int:
    """Daily on the schedule (DOGTAG_SCHEDULE_RABIES_REMINDERS); idempotent (one reminder per
    certificate), so a second run in a day or a run redelivered after a crash sends nothing twice."""
    return actions.send_rabies_reminders(today())
