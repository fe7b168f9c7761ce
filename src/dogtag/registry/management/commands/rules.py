import argparse
import sys

from django.core.management.base import BaseCommand, CommandError

from dogtag.rules import cli


class Command(BaseCommand):
    help = "Ask the ordinance engine: `rules ask JURISDICTION QUESTION --on DATE --facts FILE|-`, `rules list`."
    topic = "rules"

    def add_arguments(self, parser):
        parser.add_argument("args", nargs=argparse.REMAINDER)

    def handle(self, *args, **options):
        status = cli.main([self.topic, *args], stdin=sys.stdin, stdout=self.stdout._out)
        if status:
            raise CommandError(f"{self.topic} {' '.join(args)} failed", returncode=status)
