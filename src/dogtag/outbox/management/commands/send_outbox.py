from django.core.management.base import BaseCommand

from dogtag.outbox.sender import send


class Command(BaseCommand):
    help = (
        "Send the queued email that is due now (the worker does this every minute; this is for a person "
        "who wants it at once). Refused messages are tried again later, with a growing delay."
    )

    def handle(self, *args, **options):
        sent, failed = send()
        self.stdout.write(f"{sent} sent, {failed} refused (tried again later)")
