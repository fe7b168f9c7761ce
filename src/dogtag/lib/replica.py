"""Reports and list pages read from a replica; everything else uses the primary.

With DATABASE_REPLICA_URL set, settings name a "replica" database in DOGTAG_READ_REPLICA. A view
decorated with `@reads_from_replica` (reports, dashboards, list pages) has its ORM reads routed
there by `ReplicaRouter`, except inside a transaction; writes and every other view stay on the
primary, so a clerk never sees a figure older than her own last write.
"""

import contextvars
from contextlib import contextmanager

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

_reading = contextvars.ContextVar("dogtag_reads_from_replica", default=False)


@contextmanager
def replica_reads():
    """The ORM's reads inside go to the replica, when one is configured (also a decorator)."""
    token = _reading.set(True)
    try:
        yield
    finally:
        _reading.reset(token)


def reads_from_replica(view):
    return replica_reads()(view)


class ReplicaRouter:
    def db_for_read(self, model, **hints):
        if not _reading.get():
            return None
        alias = getattr(settings, "DOGTAG_READ_REPLICA", None)
        return alias if alias in connections.settings and not connections[DEFAULT_DB_ALIAS].in_atomic_block else None

    def db_for_write(self, model, **hints):
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        return True  # one database, copied: an object read from the replica may point at one from the primary

    def allow_migrate(self, db, app_label, **hints):
        return db == DEFAULT_DB_ALIAS
