from django.conf import settings
from django.db import models
from django.utils import timezone


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
    # Set before the event is chained (its hash covers it); never before the previous event's.
    at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)
    # The hash chain (audit/chain.py): the event's place, the hash of the event before it, and its
    # own hash over both and every field above. Filled as the row is inserted.
    seq = models.BigIntegerField(null=True, unique=True, editable=False)
    previous_hash = models.CharField(max_length=64, blank=True, editable=False)
    hash = models.CharField(max_length=64, blank=True, editable=False)

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


class ChainHead(models.Model):
    """The last event of the hash chain: one row, locked by each append so two transactions
    cannot chain to the same event. The app's database role has no privilege on it (PostgreSQL's
    insert trigger writes it as the tables' owner)."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    seq = models.BigIntegerField(default=0)
    hash = models.CharField(max_length=64, blank=True)
    at = models.DateTimeField(null=True)


class ChainCheck(models.Model):
    """The result of one `verify` of the chain, as the daily task records it for /healthz."""

    checked_at = models.DateTimeField(default=timezone.now, db_index=True)
    events = models.BigIntegerField()
    problems = models.JSONField(default=list)

    class Meta:
        ordering = ["-checked_at", "-pk"]
