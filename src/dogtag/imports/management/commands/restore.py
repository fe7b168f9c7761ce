from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from dogtag.imports.actions import restore
from dogtag.imports.exports import CHECKSUMS


class Command(BaseCommand):
    help = "Restore a municipality's export (`dogtag export`) into an empty Dogtag."

    def add_arguments(self, parser):
        parser.add_argument("directory")

    def handle(self, *args, directory, **options):
        try:
            counts = restore(directory)
        except ValidationError as e:
            raise CommandError(" ".join(e.messages)) from e
        files = counts.pop(CHECKSUMS)
        for name, n in counts.items():
            self.stdout.write(f"{name}: {n}")
        self.stdout.write(f"Restored {sum(counts.values())} rows and {files} stored files, each matching its checksum.")
