from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "dogtag.documents"
    verbose_name = "Printable documents"
