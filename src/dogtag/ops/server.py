"""`dogtag serve`: gunicorn with threaded workers, configured from environment variables.

gunicorn (gthread workers) rather than granian: it is pure Python from PyPI with no Rust build,
the WSGI server Django documents, and its process model is the one administrators know: a master
that preloads the app once (the rule packs load before the fork, shared copy-on-write), restarts
workers one by one on SIGHUP and drains them on SIGTERM. Dogtag is synchronous Django under
moderate load, where granian's speed buys nothing the database is not already the limit of.
"""

from __future__ import annotations

import os

from django.conf import settings
from gunicorn.app.base import BaseApplication

from dogtag.lib.env import ImproperlyConfiguredEnv, envint, envlist, envstr


def _positive(name: str, default: int) -> int:
    value = envint(name, default)
    if value < 1:
        raise ImproperlyConfiguredEnv(f"{name}={value}: expected a whole number of at least 1")
    return value


def _worker_class() -> str:
    value = envstr("DOGTAG_WORKER_CLASS") or "gthread"
    if value not in ("gthread", "sync"):
        raise ImproperlyConfiguredEnv(f"DOGTAG_WORKER_CLASS={value!r}: expected gthread or sync")
    return value


def options() -> dict:
    """gunicorn's settings from the environment (README: Settings)."""
    port = envint("PORT", 8000)
    return {
        "bind": envlist("DOGTAG_BIND", f"127.0.0.1:{port}"),
        "workers": _positive("DOGTAG_WORKERS", max(2, os.cpu_count() or 1)),
        "threads": _positive("DOGTAG_THREADS", 4),
        "worker_class": _worker_class(),
        "timeout": _positive("DOGTAG_TIMEOUT", 60),  # a worker silent this long is restarted
        "graceful_timeout": _positive("DOGTAG_GRACEFUL_TIMEOUT", 30),  # time to finish requests on HUP/TERM
        "keepalive": envint("DOGTAG_KEEPALIVE", 5),
        "max_requests": envint("DOGTAG_MAX_REQUESTS", 0),
        "max_requests_jitter": envint("DOGTAG_MAX_REQUESTS_JITTER", 0),
        "forwarded_allow_ips": envstr("DOGTAG_FORWARDED_ALLOW_IPS") or "127.0.0.1,::1",
        # Load Django (and every rule pack) once in the master, before the workers fork.
        "preload_app": True,
        # Access and error logs through settings.LOGGING: JSON lines on stdout.
        "logconfig_dict": settings.LOGGING,
        "logger_class": "dogtag.ops.logs.AccessLogger",  # the access line made the short way
        "proc_name": "dogtag",
        # No control socket: two servers on one host (or a read-only home) must not collide on one.
        "control_socket_disable": True,
        "worker_tmp_dir": envstr("DOGTAG_WORKER_TMP_DIR") or ("/dev/shm" if os.path.isdir("/dev/shm") else None),
    }


class Server(BaseApplication):
    def __init__(self, settings_: dict):
        self.settings_ = settings_
        super().__init__()

    def load_config(self):
        known = self.cfg.settings
        for key, value in self.settings_.items():
            if key in known and value is not None:
                self.cfg.set(key, value)

    def load(self):
        from dogtag.wsgi import application

        return application


def serve(overrides: dict | None = None) -> None:
    from django.db import connections

    config = {**options(), **(overrides or {})}
    connections.close_all()  # a connection opened by the command's checks must not be shared by the fork
    Server(config).run()
