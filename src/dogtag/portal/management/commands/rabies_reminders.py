from datetime import date

from django.core.management.base import BaseCommand

from dogtag.lib.dates import today
from dogtag.portal.actions import send_rabies_reminders


class Command(BaseCommand):
    help = (
        "Email owners whose animal's rabies certificate runs out within DOGTAG_RABIES_REMINDER_DAYS "
        "(Dogtag's reminder lead time, not a legal deadline). Running it again sends nothing twice."
    )

    def add_arguments(self, parser):
        parser.add_argument("--on", help="the day to run as (YYYY-MM-DD); default today")

    def handle(self, *args, on=None, **options):
        day = date.fromisoformat(on) if on else today()
        count = send_rabies_reminders(day)
        self.stdout.write(f"{count} rabies reminders queued for {day}.")
