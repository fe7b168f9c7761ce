from django.core.management.base import BaseCommand, CommandError

from dogtag.imports.exports import MISSING, export, files_of
from dogtag.registry.models import Municipality


class Command(BaseCommand):
    help = "Write a full export of a municipality's records to DIR: JSON lines, one file per kind."

    def add_arguments(self, parser):
        parser.add_argument("directory")
        parser.add_argument("--municipality", required=True, help="its slug, e.g. benton")

    def handle(self, *args, directory, municipality, **options):
        m = Municipality.objects.filter(slug=municipality).first()
        if m is None:
            raise CommandError(f"No municipality {municipality!r}.")
        counts = export(m, directory)
        files = files_of(directory)
        self.stdout.write(
            f"Exported {sum(counts.values())} rows of {m} in {len(counts)} files, and {files['copied']} stored "
            f"files with their checksums, to {directory}."
        )
        if files["missing"]:
            self.stdout.write(
                f"{len(files['missing'])} stored files named by the records were not in storage and are not in the "
                f"export (listed in {MISSING}): {', '.join(files['missing'])}."
            )
