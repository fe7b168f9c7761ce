"""Strict readers for settings taken from environment variables.

A malformed value stops the process with a message naming the variable, rather than
silently falling back to a default (healthchecks' envbool/envint, with `_FILE` variants
for secrets kept in files).
"""

import os


class ImproperlyConfiguredEnv(ValueError):
    pass


def envstr(name: str, default: str | None = None) -> str | None:
    file_name = os.environ.get(f"{name}_FILE")
    if file_name:
        with open(file_name, encoding="utf-8") as f:
            return f.read().strip()
    return os.environ.get(name, default)


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfiguredEnv(f"{name}={value!r}: expected one of true/false, yes/no, on/off, 1/0")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
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
