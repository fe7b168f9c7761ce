"""Strict readers for settings taken from environment variables.

A malformed value stops the process with a message naming the variable, rather than
silently falling back to a default (healthchecks' envbool/envint, with `_FILE` variants
for secrets kept in files).
"""

import os


class ImproperlyConfiguredEnv(ValueError):
    pass


def envstr(name: str, default: str | None = None) -> str | None:
    if file_name := os.environ.get(f"{name}_FILE"):
        with open(file_name, encoding="utf-8") as f:
            return f.read().strip()
    return os.environ.get(name, default)


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if not value:
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfiguredEnv(f"{name}={value!r}: expected one of true/false, yes/no, on/off, 1/0")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name)
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfiguredEnv(f"{name}={value!r}: expected an integer") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in (os.environ.get(name) or default).split(",") if item.strip()]


def envcron(name: str, default: str) -> str | None:
    """A cron expression (five fields), or None for "off"."""
    value = (os.environ.get(name) or default).strip()
    if value.lower() == "off":
        return None
    from croniter import croniter

    if not croniter.is_valid(value):
        raise ImproperlyConfiguredEnv(f"{name}={value!r}: expected a cron expression such as '0 6 * * *', or off")
    return value


def _days(name: str, raw: str) -> tuple[int, ...]:
    try:
        days = tuple(sorted({int(d) for d in raw.split(",") if d.strip()}))
    except ValueError:
        raise ImproperlyConfiguredEnv(
            f"{name}={raw!r}: expected whole numbers of days separated by commas, such as -30,-7,7,30"
        ) from None
    if 0 in days:
        raise ImproperlyConfiguredEnv(
            f"{name}={raw!r}: 0 is not a lead time (before the end: negative; after: positive)"
        )
    return days


def envdays_by_key(name: str, default: str) -> dict[str, tuple[int, ...]]:
    """Days relative to a date, per key: `-30,-7,7,30` for every key (stored under ""), or
    `benton:-30,-7;webster:-14,14` for some keys, the rest taking `default`."""
    value = (os.environ.get(name) or "").strip()
    found = {"": _days(name, default)}
    for part in filter(str.strip, value.split(";")):
        key, sep, raw = part.partition(":")
        if not sep:  # days for every key
            key, raw = "", key
        elif not key.strip():
            raise ImproperlyConfiguredEnv(f"{name}={value!r}: a key before ':' is missing in {part!r}")
        found[key.strip()] = _days(name, raw)
    return found
