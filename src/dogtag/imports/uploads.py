"""Rolls and mappings as uploaded, kept through Django's storage API under imports/<sha256>, so
the worker that writes an import reads the same bytes the clerk checked, on whichever machine
it runs. The upload is copied in chunks while it is hashed, never read into memory whole."""

import hashlib
import re
import shutil
import tempfile
from contextlib import contextmanager

from django.core.files import File
from django.core.files.storage import default_storage

FOLDER = "imports"


def keep(upload) -> str:
    """Store `upload` (a Django UploadedFile or an open binary file); returns its sha256."""
    digest = hashlib.sha256()
    with tempfile.TemporaryFile() as copy:
        chunks = upload.chunks() if hasattr(upload, "chunks") else iter(lambda: upload.read(1 << 20), b"")
        for chunk in chunks:
            digest.update(chunk)
            copy.write(chunk)
        name = f"{FOLDER}/{digest.hexdigest()}"
        if not default_storage.exists(name):
            copy.seek(0)
            default_storage.save(name, File(copy))
    return digest.hexdigest()


def exists(digest: str) -> bool:
    return bool(re.fullmatch(r"[0-9a-f]{64}", digest or "")) and default_storage.exists(f"{FOLDER}/{digest}")


@contextmanager
def local_copy(digest: str):
    """A path on this machine holding the stored file (the storage's own when it has one)."""
    if not exists(digest):
        raise FileNotFoundError(f"No stored upload {digest[:12]}; upload the file again.")
    name = f"{FOLDER}/{digest}"
    try:
        path = default_storage.path(name)
    except NotImplementedError:  # a remote store (django-storages): copy it down
        path = None
    if path:
        yield path
        return
    with tempfile.NamedTemporaryFile() as copy, default_storage.open(name, "rb") as stored:
        shutil.copyfileobj(stored, copy)
        copy.flush()
        yield copy.name


def read(digest: str) -> bytes | None:
    """A small stored file (a mapping) as bytes, or None."""
    if not exists(digest):
        return None
    with default_storage.open(f"{FOLDER}/{digest}", "rb") as f:
        return f.read(1 << 20)


def delete(digest: str) -> None:
    """The stored file gone (nothing if there is none)."""
    if exists(digest):
        default_storage.delete(f"{FOLDER}/{digest}")
