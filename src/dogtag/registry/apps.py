from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "dogtag.registry"
    verbose_name = "Registry"
