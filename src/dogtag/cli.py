"""The `dogtag` command: Django's manage.py, with Dogtag's own commands beside Django's."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
    from django.core.management import execute_from_command_line

    from dogtag.lib.env import ImproperlyConfiguredEnv

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfiguredEnv as e:  # a setting that cannot be right: say which, not a traceback
        sys.exit(f"dogtag: {e}")
