from django.conf import settings
from django.db import models


class AuditEventQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise PermissionError("Audit events are never changed.")

    def delete(self):
        raise PermissionError("Audit events are never deleted.")

    def for_object(self, obj):
        return self.filter(object_type=obj._meta.label_lower, object_id=str(obj.pk))


class AuditEvent(models.Model):
    """Who did what to which record, and the fields before and after. Written in the same
    transaction as the change by audit.record(); append-only."""

    municipality = models.ForeignKey("registry.Municipality", null=True, on_delete=models.PROTECT)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT)
    action = models.CharField(max_length=50)
    object_type = models.CharField(max_length=100)
    object_id = models.CharField(max_length=50)
    object_repr = models.CharField(max_length=200)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["object_type", "object_id"])]

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise PermissionError("Audit events are never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("Audit events are never deleted.")

    def changes(self):
        """(label, before, after) for each field that differs, as the clerk reads them."""
        from dogtag.audit.display import changes

        return changes(self)
