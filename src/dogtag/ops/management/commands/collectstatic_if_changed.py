from django.core.management.base import BaseCommand

from dogtag.ops.static import collect_if_changed


class Command(BaseCommand):
    help = "Collect the static files (hashed and compressed) unless they were collected from these very sources."

    def handle(self, *args, **options):
        self.stdout.write("Collected the static files." if collect_if_changed() else "The static files are current.")
