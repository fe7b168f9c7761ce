from django.db import models


class Heartbeat(models.Model):
    """When a worker last ran a task from the schedule: /healthz reads it, so a load balancer
    learns that scheduled work (the outbox, reminders) has stopped. One row per cluster name."""

    name = models.CharField(max_length=100, primary_key=True)
    seen_at = models.DateTimeField()
    host = models.CharField(max_length=200, blank=True)
    pid = models.PositiveIntegerField(null=True)

    def __str__(self):
        return f"{self.name} at {self.seen_at:%Y-%m-%d %H:%M:%S}"
