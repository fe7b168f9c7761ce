from django.core.management.base import BaseCommand, CommandError

from dogtag.lib.progress import Progress
from dogtag.licensing.renewals import run_renewals
from dogtag.registry.models import Municipality


class Command(BaseCommand):
    help = "Create the renewal notices for YEAR (idempotent): one printable PDF batch, emails after commit."

    def add_arguments(self, parser):
        parser.add_argument("year", type=int)
        parser.add_argument("--municipality", help="its slug, e.g. benton (default: all)")

    def handle(self, *args, year, municipality=None, **options):
        municipalities = Municipality.objects.all()
        if municipality:
            municipalities = municipalities.filter(slug=municipality)
            if not municipalities:
                raise CommandError(
                    f"No municipality {municipality!r}; known: "
                    f"{', '.join(Municipality.objects.values_list('slug', flat=True))}"
                )
        for m in municipalities:
            run = self.run_one(m, year)
            self.stdout.write(
                f"{m}: {run.notices_created} notices, {run.emails_queued} emails queued"
                + (f", PDF {run.pdf}" if run.pdf else "")
            )

    def run_one(self, municipality, year):
        return run_renewals(
            acting_user=None,
            municipality=municipality,
            license_year=year,
            progress=lambda total: Progress(f"{municipality.name} {year}", total, self.stderr._out),
        )
