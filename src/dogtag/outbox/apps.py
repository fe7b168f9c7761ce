from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "dogtag.outbox"
    verbose_name = "Outgoing email"
