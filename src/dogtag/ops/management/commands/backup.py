from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from dogtag.ops.backup import BackupError, backup


class Command(BaseCommand):
    help = (
        "Back up the whole system into DIR (new or empty): the database (SQLite's backup API, or pg_dump) "
        "without its sessions, and every stored file, with a manifest of checksums, each file sealed with "
        "the key in DOGTAG_BACKUP_KEY_FILE (0600 files, 0700 folders). Restore with `dogtag restore-backup DIR`."
    )

    def add_arguments(self, parser):
        parser.add_argument("folder", type=Path)

    def handle(self, *args, folder, **options):
        try:
            manifest = backup(folder)
        except BackupError as e:
            raise CommandError(str(e)) from None
        media = sum(name.startswith("media/") for name in manifest["files"])
        self.stdout.write(
            f"Backed up the {manifest['engine']} database and {media} stored files into {folder}, "
            "sealed with the backup key"
        )
