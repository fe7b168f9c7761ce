from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Running Dogtag as a service: the production server, logs, backups, first setup."""

    name = "dogtag.ops"
    verbose_name = "Operations"
