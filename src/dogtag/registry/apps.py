from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "dogtag.registry"
    verbose_name = "Registry"

    def ready(self):
        from dogtag.rules.catalogue import load_all

        # Every pack and question loaded completely before the first request or command: the
        # threads of a server process then only ever read them (rules/catalogue.py).
        load_all()
