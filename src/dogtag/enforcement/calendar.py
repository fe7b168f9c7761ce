"""The officer's deadlines as an iCalendar feed (RFC 5545), fetched by a calendar app without a
session through a secret URL. The secret is an HMAC of the user and a per-user salt, so the
database alone does not reveal it, and rotating the salt revokes the old URL."""

from datetime import UTC, timedelta

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from dogtag.enforcement.actions.calendar import calendar_key
from dogtag.enforcement.models import CalendarKey
from dogtag.rules.dates import ONE_DAY  # an all-day event ends the next day (RFC 5545)


def token(user) -> str:
    return salted_hmac("dogtag.enforcement.calendar", f"{user.pk}:{calendar_key(user).salt}").hexdigest()[:40]


def feed_url(request, user) -> str | None:
    """The feed's address, or None until the officer asks for one (a page view writes nothing)."""
    if not CalendarKey.objects.filter(user=user).exists():
        return None
    return request.build_absolute_uri(reverse("calendar-feed", args=[user.pk, token(user)]))


def user_for(user_id: int, given: str):
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not CalendarKey.objects.filter(user=user).exists():
        return None
    return user if constant_time_compare(token(user), given) else None


def _text(value: str) -> str:
    return value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _fold(line: str) -> str:
    """Lines longer than 75 octets are folded (RFC 5545 §3.1)."""
    out, raw = [], line.encode()
    while len(raw) > 75:
        cut = 75 if not out else 74
        while cut and (raw[cut] & 0xC0) == 0x80:  # never split a UTF-8 character
            cut -= 1
        out.append(raw[:cut].decode())
        raw = raw[cut:]
    out.append(raw.decode())
    return "\r\n ".join(out)


def ics(deadlines, base_url: str) -> str:
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Dogtag//Animal control deadlines//EN",
        "CALSCALE:GREGORIAN",
        "X-WR-CALNAME:Dogtag deadlines",
    ]
    for d in deadlines:
        why = "; ".join(f"{c['section']}: {c['quote']}" for c in d.citations)
        lines += ["BEGIN:VEVENT", f"UID:deadline-{d.pk}@dogtag", f"DTSTAMP:{stamp}"]
        if d.due_at:
            at = d.due_at.astimezone(UTC)
            lines += [f"DTSTART:{at:%Y%m%dT%H%M%SZ}", f"DTEND:{at + timedelta(minutes=30):%Y%m%dT%H%M%SZ}"]
        else:
            lines += [
                f"DTSTART;VALUE=DATE:{d.due_on:%Y%m%d}",
                f"DTEND;VALUE=DATE:{d.due_on + ONE_DAY:%Y%m%d}",
            ]
        lines += [
            f"SUMMARY:{_text(f'{d.label} — {d.case.title} ({d.municipality.name})')}",
            f"DESCRIPTION:{_text(why)}",
            f"URL:{base_url}{reverse('case', args=[d.case_id])}",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "\r\n".join(_fold(line) for line in lines) + "\r\n"
