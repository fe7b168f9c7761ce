from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from dogtag.ops.backup import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restore a backup made by `dogtag backup` into this installation (DATABASE_URL and the media "
        "storage), opened with the key in DOGTAG_BACKUP_KEY_FILE, then apply any newer migrations and end "
        "every session. Refuses an installation that holds records unless --replace."
    )

    def add_arguments(self, parser):
        parser.add_argument("folder", type=Path)
        parser.add_argument("--replace", action="store_true", help="overwrite the records this installation holds")

    def handle(self, *args, folder, replace=False, **options):
        try:
            manifest = restore(folder, replace=replace)
        except BackupError as e:
            raise CommandError(str(e)) from None
        call_command("migrate", interactive=False, verbosity=0)
        media = sum(name.startswith("media/") for name in manifest["files"])
        self.stdout.write(
            f"Restored the backup of {manifest['created_at']} (Dogtag {manifest['dogtag']}): "
            f"the database and {media} stored files"
        )
