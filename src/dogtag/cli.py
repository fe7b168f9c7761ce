"""The `dogtag` command: Django's manage.py, with Dogtag's own commands beside Django's."""

import os
import sys

# The law's own commands (`rules ask`, `rules list`, `law coverage`) read only the rule packs: the
# engine is pure Python (rules/), so they run without Django's settings, and so without SECRET_KEY,
# DOGTAG_BASE_URL or a database, on a fresh install as on a production server.
WITHOUT_SETTINGS = ("rules", "law")


def municipal_rulings(slug: str):
    """`dogtag rules ask <slug>`: the municipality's pack and rulings, read from the database (the
    only law command that needs the settings; a rule pack id needs neither)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
    import django
    from django.core.exceptions import ImproperlyConfigured
    from django.db import Error as DatabaseError

    from dogtag.lib.env import ImproperlyConfiguredEnv

    try:
        django.setup()
        from dogtag.registry.rulings import of_municipality

        return of_municipality(slug)
    except (ImproperlyConfigured, ImproperlyConfiguredEnv, DatabaseError) as e:
        raise ValueError(f"{slug!r} is not a rule pack, and the municipalities cannot be read: {e}") from None


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in WITHOUT_SETTINGS:
        from dogtag.rules import cli

        try:
            sys.exit(cli.main(sys.argv[1:], municipal=municipal_rulings))
        except BrokenPipeError:  # `dogtag rules list | head`: the reader has what it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
    from django.core.management import execute_from_command_line
    from django.db import Error as DatabaseError

    from dogtag.lib.env import ImproperlyConfiguredEnv

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfiguredEnv as e:  # a setting that cannot be right: say which, not a traceback
        sys.exit(f"dogtag: {e}")
    except (OSError, DatabaseError) as e:
        # A full disk, a folder it may not write, a database it cannot reach: the administrator
        # reads a sentence; `--traceback` shows where.
        if "--traceback" in sys.argv:
            raise
        command = sys.argv[1] if len(sys.argv) > 1 else "dogtag"
        sys.exit(f"dogtag {command}: {type(e).__name__}: {e}")
