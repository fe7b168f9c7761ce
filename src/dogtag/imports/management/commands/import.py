from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from dogtag.accounts.models import Membership
from dogtag.imports import actions, uploads
from dogtag.imports.actions import IMPORTERS
from dogtag.imports.rolls import BATCH_SIZE, Mapping, RollError, plan
from dogtag.lib.progress import Progress
from dogtag.registry.models import Municipality


class Command(BaseCommand):
    help = (
        "Import a roll of owners, dogs, rabies certificates and past licenses (CSV or Excel). Shows what it "
        "found first; writes only the valid rows, in batches; a rerun adds nothing. An interrupted import "
        "is resumed from its page or by running the command again."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--municipality", required=True, help="its slug, e.g. benton")
        parser.add_argument("--mapping", help="a YAML file naming the columns of another layout")
        parser.add_argument("--encoding", default="", help="the CSV file's encoding (found from the file if not given)")
        parser.add_argument("--user", help="the clerk importing (default: the municipality's first clerk)")
        parser.add_argument("--dry-run", action="store_true", help="show what would be imported; write nothing")
        parser.add_argument("--batch-size", type=int, default=BATCH_SIZE)

    def handle(self, *args, file, municipality, mapping=None, encoding="", user=None, dry_run=False, **options):
        batch_size = options.get("batch_size") or BATCH_SIZE
        m = Municipality.objects.filter(slug=municipality).first()
        if m is None:
            known = ", ".join(Municipality.objects.values_list("slug", flat=True))
            raise CommandError(f"No municipality {municipality!r}; known: {known}")
        acting_user = self.importer(m, user)
        path = Path(file)
        try:
            found = plan(
                m, path, path.name, Mapping.load(mapping), encoding=encoding, keep=not dry_run, batch_size=batch_size
            )
        except (OSError, RollError) as e:
            raise CommandError(str(e)) from e
        self.show(found)
        if dry_run or not found.valid:
            return
        with open(path, "rb") as f:
            digest = uploads.keep(f)
        mapping_digest = ""
        if mapping:
            with open(mapping, "rb") as f:
                mapping_digest = uploads.keep(f)
        try:
            run = actions.start_import(
                m, found, acting_user=acting_user, mapping_sha256=mapping_digest, encoding=encoding, digest=digest
            )
            run = actions.run_import(
                run,
                path,
                Mapping.load(mapping),
                acting_user=acting_user,
                batch_size=batch_size,
                progress=lambda total: Progress(f"Importing into {m.name}", total, self.stderr._out),
            )
        except (RollError, ValidationError) as e:
            raise CommandError(" ".join(getattr(e, "messages", [str(e)]))) from e
        self.stdout.write(f"Imported {run.written} rows in {run.batches.count()} batches (import run {run.pk}).")

    def importer(self, municipality, username):
        memberships = Membership.objects.filter(municipality=municipality, role__in=IMPORTERS).select_related("user")
        if username:
            memberships = memberships.filter(user__username=username)
        found = memberships.order_by("pk").first()
        if found is None:
            raise CommandError(f"No clerk or administrator {username or ''} of {municipality} to import as.")
        return found.user

    def show(self, found):
        w = self.stdout.write
        w(f"{found.file_name}: {found.rows} rows (read as {found.read_as})")
        w(f"  to import:         {found.valid}")
        w(f"  already imported:  {found.already}")
        w(
            f"  repeated rows:     {found.repeated}"
            + (f" (lines {', '.join(map(str, found.duplicates[:20]))})" if found.duplicates else "")
        )
        w(f"  invalid rows:      {found.invalid}")
        w(f"  owners:            {found.owners_new} new, {found.owners_matched} matched")
        w(f"  animals:           {found.animals_new} new, {found.animals_matched} matched")
        w(f"  rabies certificates: {found.vaccinations_new} new; past licenses: {found.licenses_new} new")
        for p in found.problems[:200]:
            w(f"  line {p.line}, column {p.column!r}, value {p.value[:80]!r}: {p.rule}")
        if found.problems_found > 200:
            w(f"  ... and {found.problems_found - 200} more problems")
