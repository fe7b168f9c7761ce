from django.apps import AppConfig


class LicensingConfig(AppConfig):
    name = "dogtag.licensing"
    verbose_name = "Licensing"

    def ready(self):
        from dogtag.licensing import documents  # noqa: F401 - registers the renderers the outbox sends
