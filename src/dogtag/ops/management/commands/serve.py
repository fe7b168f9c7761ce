from django.core.management.base import BaseCommand

from dogtag.ops.server import serve
from dogtag.ops.static import collect_if_changed


class Command(BaseCommand):
    help = (
        "Serve Dogtag in production with gunicorn: DOGTAG_WORKERS processes x DOGTAG_THREADS threads on "
        "DOGTAG_BIND (default 127.0.0.1:$PORT). Static files are collected first when they changed. "
        "SIGHUP restarts the workers one by one; SIGTERM lets running requests finish "
        "(DOGTAG_GRACEFUL_TIMEOUT) and stops."
    )

    def add_arguments(self, parser):
        parser.add_argument("--bind", action="append", help="host:port (repeatable); overrides DOGTAG_BIND")
        parser.add_argument("--workers", type=int, help="overrides DOGTAG_WORKERS")
        parser.add_argument("--threads", type=int, help="overrides DOGTAG_THREADS")
        parser.add_argument(
            "--no-collectstatic", action="store_true", help="the static files were collected already (an image build)"
        )

    def handle(self, *args, bind=None, workers=None, threads=None, no_collectstatic=False, **options):
        if not no_collectstatic:
            collect_if_changed()
        overrides = {"bind": bind, "workers": workers, "threads": threads}
        serve({k: v for k, v in overrides.items() if v})
