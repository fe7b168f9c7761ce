"""The worker's heartbeat: written by a scheduled task, read by /healthz."""

import os
import socket
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from dogtag.worker.models import Heartbeat


def beat() -> None:
    Heartbeat.objects.update_or_create(
        name=settings.Q_CLUSTER["name"],
        defaults={"seen_at": timezone.now(), "host": socket.gethostname()[:200], "pid": os.getpid()},
    )


def age() -> timedelta | None:
    """How long since the last beat; None if the worker never beat."""
    seen = Heartbeat.objects.filter(name=settings.Q_CLUSTER["name"]).values_list("seen_at", flat=True).first()
    return None if seen is None else timezone.now() - seen
