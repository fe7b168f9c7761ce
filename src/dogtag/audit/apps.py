from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "dogtag.audit"
    verbose_name = "Audit trail"
