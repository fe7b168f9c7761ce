"""The `dogtag` command: Django's manage.py, with Dogtag's own commands beside Django's."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dogtag.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
