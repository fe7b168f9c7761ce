"""django-axes' database handler, with two locks instead of one limit (README, "Security").

Axes counts the failures of each lockout-parameter combination and compares the largest with one
AXES_FAILURE_LIMIT in one AXES_COOLOFF_TIME. A lock by username alone at that limit lets anyone who
guesses a clerk's username shut her out, and a lock by address alone shuts out a whole office behind
one NAT address. So the username and address together lock after AXES_FAILURE_LIMIT failures for
AXES_COOLOFF_MINUTES, and the username alone — a guesser spreading attempts over many addresses —
only after DOGTAG_LOCKOUT_USERNAME_LIMIT failures, for DOGTAG_LOCKOUT_USERNAME_MINUTES.
AXES_LOCKOUT_PARAMETERS lists the pair first and the username second; AXES_COOLOFF_TIME is the
longer of the two, so axes keeps every attempt either lock reads.

A successful login resets only its own pair (the username from this address): axes' reset would delete
every row of the username, the attacker's locked pair and the username-wide count with it, so a guesser's
count would restart at each of the clerk's logins. The lock page says which lock holds and its cool-off
in words."""

from datetime import timedelta

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.db.models import Sum
from django.shortcuts import render
from django.utils import timezone


def _failures(attempts, minutes: int) -> int:
    since = timezone.now() - timedelta(minutes=minutes)
    return attempts.filter(attempt_time__gte=since).aggregate(n=Sum("failures_since_start"))["n"] or 0


def _in_words(minutes: int) -> str:
    if minutes % 60 == 0:
        hours = minutes // 60
        return "an hour" if hours == 1 else f"{hours} hours"
    return "a minute" if minutes == 1 else f"{minutes} minutes"


class LockoutHandler(AxesDatabaseHandler):
    def get_failures(self, request, credentials=None) -> int:
        """The failures that count against AXES_FAILURE_LIMIT: the pair's within its cool-off, or the
        limit itself once the username alone has reached its own (larger) limit within its own."""
        pair = _failures(self._by_pair(request, credentials), settings.AXES_COOLOFF_MINUTES)
        if self.username_locked(request, credentials):
            return max(pair, settings.AXES_FAILURE_LIMIT)
        return pair

    def _by_pair(self, request, credentials=None):
        return self.filter_user_attempts(request, credentials)[0]

    def username_locked(self, request, credentials=None) -> bool:
        by_username = self.filter_user_attempts(request, credentials)[1]
        failures = _failures(by_username, settings.DOGTAG_LOCKOUT_USERNAME_MINUTES)
        return failures >= settings.DOGTAG_LOCKOUT_USERNAME_LIMIT

    def reset_user_attempts(self, request, credentials=None) -> int:
        """On success (AXES_RESET_ON_SUCCESS), only this pair's failures, by axes' own reset: other
        addresses' rows, and so the username-wide count, stay."""
        from axes.helpers import get_client_username

        username, address = get_client_username(request, credentials), getattr(request, "axes_ip_address", None)
        if not (username and address):  # axes' reset drops an empty filter: never widen it to everyone
            return 0
        return self.reset_attempts(ip_address=address, username=username)


def lockout_response(request, original_response=None, credentials=None):
    """AXES_LOCKOUT_CALLABLE: the lock that holds, with its cool-off in words."""
    from axes.helpers import get_client_username

    everywhere = LockoutHandler().username_locked(request, credentials)
    minutes = settings.DOGTAG_LOCKOUT_USERNAME_MINUTES if everywhere else settings.AXES_COOLOFF_MINUTES
    context = {
        "username": get_client_username(request, credentials) or "",
        "everywhere": everywhere,
        "cool_off": _in_words(minutes),
    }
    return render(request, settings.AXES_LOCKOUT_TEMPLATE, context, status=settings.AXES_HTTP_RESPONSE_CODE)
