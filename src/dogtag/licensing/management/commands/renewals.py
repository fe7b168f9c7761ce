import time

from django.core.management.base import BaseCommand, CommandError

from dogtag.lib.progress import Progress
from dogtag.licensing.actions import start_renewal_run
from dogtag.licensing.models import RenewalChunk, RenewalRun
from dogtag.registry.models import Municipality


class Command(BaseCommand):
    help = (
        "Create the renewal notices for YEAR (idempotent: a second run adds only new ones). The notices are "
        "committed at once; `dogtag worker` prints them in parts, merges the parts and emails the owners. "
        "--wait follows the printing with a progress bar."
    )

    def add_arguments(self, parser):
        parser.add_argument("year", type=int)
        parser.add_argument("--municipality", help="its slug, e.g. benton (default: all)")
        parser.add_argument("--wait", action="store_true", help="wait until the worker has printed every part")

    def handle(self, *args, year, municipality=None, wait=False, **options):
        municipalities = Municipality.objects.all()
        if municipality:
            municipalities = municipalities.filter(slug=municipality)
            if not municipalities:
                raise CommandError(
                    f"No municipality {municipality!r}; known: "
                    f"{', '.join(Municipality.objects.values_list('slug', flat=True))}"
                )
        for m in municipalities:
            run = start_renewal_run(acting_user=None, municipality=m, license_year=year)
            self.stdout.write(
                f"{m}: {run.notices_created} notices, {run.emails_queued} to be emailed, "
                f"printed in {run.chunks_total} part(s) by the worker (run {run.pk})"
            )
            if wait and run.chunks_total:
                self.follow(run)

    def follow(self, run, poll=1.0):
        bar = Progress(f"{run.municipality.name} {run.license_year} printing", run.chunks_total, self.stderr._out)
        while bar.done < run.chunks_total:
            printed = RenewalChunk.objects.filter(run=run).exclude(done_at=None).count()
            if printed > bar.done:
                bar.advance(printed - bar.done)
            else:
                time.sleep(poll)
        while not (run := RenewalRun.objects.get(pk=run.pk)).finished_at:
            time.sleep(poll)
        self.stdout.write(f"  merged: {run.pdf}")
