from django.apps import AppConfig


class LicensingConfig(AppConfig):
    name = "dogtag.licensing"
    verbose_name = "Licensing"
