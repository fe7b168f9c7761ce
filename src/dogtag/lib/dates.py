"""The municipality's day (`today`), and one date format on screen and on paper, `March 1, 2027`,
for the text Python writes (a record's name, a case's title, a message); data, forms and CSV stay
ISO."""

from datetime import date, datetime

from django.utils import timezone


def today() -> date:
    """The day in the deployment's time zone: the day a clerk's date means."""
    return timezone.localdate()


def shown(value: date | datetime | None) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        local = timezone.localtime(value) if timezone.is_aware(value) else value
        hour = local.hour % 12 or 12
        return f"{shown(local.date())}, {hour}:{local:%M} {'AM' if local.hour < 12 else 'PM'}"
    return f"{value:%B} {value.day}, {value.year}"
