from django.core.management.base import BaseCommand

from dogtag.outbox.mail import send


class Command(BaseCommand):
    help = "Send every queued email (those a mail server refused before are tried again)."

    def handle(self, *args, **options):
        sent, failed = send()
        self.stdout.write(f"{sent} sent, {failed} still queued")
