"""One plausibility rule per kind of date a record keeps, for the models' `clean()` (which the
forms, the actions behind the API and the roll import all run) and the actions that take a date
without a model form. These are limits on what a record can mean, not legal numbers: no animal
on record is older than DOGTAG_OLDEST_ANIMAL_YEARS, so nothing about one happened earlier, and
nothing Dogtag keeps runs or is scheduled more than DOGTAG_FURTHEST_AHEAD_YEARS from today."""

from datetime import date
from enum import Enum

from dateutil.relativedelta import relativedelta
from django.conf import settings
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dogtag.lib.dates import shown, today


class Kind(Enum):
    BORN = "born"  # a birth date: not in the future
    HAPPENED = "happened"  # acquired, brought in, vaccinated, observed, violated: not in the future
    RUNS = "runs"  # an ownership's start or end, a certificate's expiry, a court date: may be ahead


def earliest() -> date:
    return today() - relativedelta(years=settings.DOGTAG_OLDEST_ANIMAL_YEARS)  # February 29 to 28


def latest(kind: Kind) -> date:
    on = today()
    return on if kind in (Kind.BORN, Kind.HAPPENED) else on + relativedelta(years=settings.DOGTAG_FURTHEST_AHEAD_YEARS)


def said(day: date) -> str:
    """`March 1, 2027` on a staff page, `1 de marzo de 2027` on a resident's in Spanish."""
    return shown(day) if (translation.get_language() or "en").startswith("en") else date_format(day)


def problem(kind: Kind, day: date | None, label: str) -> str | None:
    """Why `day` cannot be this kind of date (`label` names it: "Date acquired"), or None."""
    if day is None:
        return None
    if day < earliest():
        return _(
            "%(label)s %(day)s is more than %(years)s years ago; "
            "no animal on record is older (the earliest accepted is %(earliest)s)."
        ) % {
            "label": label,
            "day": said(day),
            "years": settings.DOGTAG_OLDEST_ANIMAL_YEARS,
            "earliest": said(earliest()),
        }
    if day > latest(kind):
        if kind is not Kind.RUNS:
            return _("%(label)s %(day)s is in the future.") % {"label": label, "day": said(day)}
        return (
            f"{label} {shown(day)} is more than {settings.DOGTAG_FURTHEST_AHEAD_YEARS} years ahead; "
            f"the latest accepted is {shown(latest(kind))}."
        )
    return None


BORN, HAPPENED, RUNS = Kind.BORN, Kind.HAPPENED, Kind.RUNS


def check(errors: dict, kind: Kind, day: date | None, field: str, label: str) -> None:
    """Add the problem with `day`, if any, to a `clean()`'s errors under `field` (once per field)."""
    found = problem(kind, day, label)
    if found and field not in errors:
        errors[field] = found
