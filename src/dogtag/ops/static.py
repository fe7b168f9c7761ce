"""The production static files storage: WhiteNoise's compressed manifest (hashed names, gzip and
brotli copies, far-future cache headers)."""

import fcntl
import hashlib
import os
from pathlib import Path

from whitenoise.storage import CompressedManifestStaticFilesStorage


def _without_source_maps(patterns):
    return tuple(
        (ext, tuple(p for p in pats if "sourceMappingURL" not in (p[0] if isinstance(p, tuple) else p)))
        for ext, pats in patterns
    )


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Source-map comments are left as written: a vendored minified library (Chart.js) names a map
    it does not ship, which would otherwise stop collectstatic; browsers only fetch maps in devtools."""

    patterns = _without_source_maps(CompressedManifestStaticFilesStorage.patterns)


def sources_fingerprint() -> str:
    """A digest of every static source file's name, size and modification time."""
    from django.contrib.staticfiles.finders import get_finders

    digest = hashlib.sha256()
    for finder in get_finders():
        for path, storage in sorted(finder.list([]), key=lambda item: item[0]):
            stat = os.stat(storage.path(path))
            digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def collect_if_changed() -> bool:
    """Collect the static files unless the last collection was of these very sources.

    Collecting and compressing takes seconds of CPU; a restart with nothing new skips it. Several
    processes starting at once (web and worker, or two servers) take turns on a lock file.
    """
    from django.conf import settings
    from django.core.management import call_command

    root = Path(settings.STATIC_ROOT)
    root.mkdir(parents=True, exist_ok=True)
    stamp = root / ".collected-from"
    with open(root / ".collect.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        fingerprint = sources_fingerprint()
        if stamp.exists() and stamp.read_text() == fingerprint and (root / "staticfiles.json").exists():
            return False
        call_command("collectstatic", interactive=False, verbosity=0)
        stamp.write_text(fingerprint)
        return True
