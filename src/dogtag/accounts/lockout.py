"""django-axes' database handler, with two locks instead of one limit (README, "Security").

Axes counts the failures of each lockout-parameter combination and compares the largest with one
AXES_FAILURE_LIMIT in one AXES_COOLOFF_TIME. A lock by username alone at that limit lets anyone who
guesses a clerk's username shut her out, and a lock by address alone shuts out a whole office behind
one NAT address. So the username and address together lock after AXES_FAILURE_LIMIT failures for
AXES_COOLOFF_MINUTES, and the username alone — a guesser spreading attempts over many addresses —
only after DOGTAG_LOCKOUT_USERNAME_LIMIT failures, for DOGTAG_LOCKOUT_USERNAME_MINUTES.
AXES_LOCKOUT_PARAMETERS lists the pair first and the username second; AXES_COOLOFF_TIME is the
longer of the two, so axes keeps every attempt either lock reads."""

from datetime import timedelta

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.db.models import Sum
from django.utils import timezone


def _failures(attempts, minutes: int) -> int:
    since = timezone.now() - timedelta(minutes=minutes)
    return attempts.filter(attempt_time__gte=since).aggregate(n=Sum("failures_since_start"))["n"] or 0


class LockoutHandler(AxesDatabaseHandler):
    def get_failures(self, request, credentials=None) -> int:
        """The failures that count against AXES_FAILURE_LIMIT: the pair's within its cool-off, or the
        limit itself once the username alone has reached its own (larger) limit within its own."""
        by_pair, by_username = self.filter_user_attempts(request, credentials)
        pair = _failures(by_pair, settings.AXES_COOLOFF_MINUTES)
        if _failures(by_username, settings.DOGTAG_LOCKOUT_USERNAME_MINUTES) >= settings.DOGTAG_LOCKOUT_USERNAME_LIMIT:
            return max(pair, settings.AXES_FAILURE_LIMIT)
        return pair
