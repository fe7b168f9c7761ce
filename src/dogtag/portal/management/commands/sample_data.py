from django.core.management.base import BaseCommand

from dogtag.portal.sample import fill_all
from dogtag.registry.models import Municipality


class Command(BaseCommand):
    help = (
        "Fill each demo municipality with a realistic sample (after `dogtag demo`). Running it again changes nothing."
    )

    def handle(self, *args, **options):
        fill_all(Municipality.objects.order_by("slug"), self.stdout)
