from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "dogtag.portal"
    verbose_name = "Public self-service"
