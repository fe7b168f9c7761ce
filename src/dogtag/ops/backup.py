"""A backup of the whole system in one folder: the database and every stored file, with a manifest
of checksums, restorable into an empty installation.

- SQLite: the sqlite3 online backup API (a consistent copy while clerks keep working; WAL included).
- PostgreSQL: `pg_dump --format=custom` and `pg_restore` (the server's own tools, matched to it).
- Media: every file of the default storage, read and written through the storage API, so a backup
  taken from an object store restores onto a disk and back.

Hand-written rather than django-dbbackup: these are the two engines' own tools called in a few
lines, and one folder with one manifest is easier to check and to carry than dbbackup's separate
database and media archives with their own storage setting.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from django.core.files import File
from django.core.files.storage import default_storage
from django.db import connection, connections

MANIFEST = "manifest.json"
SQLITE_FILE = "database.sqlite3"
PG_FILE = "database.pgdump"


class BackupError(Exception):
    pass


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _pg_env_and_args(settings_dict: dict) -> tuple[dict, list[str]]:
    env = {**os.environ}
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = settings_dict["PASSWORD"]
    args = ["--host", settings_dict.get("HOST") or "127.0.0.1", "--port", str(settings_dict.get("PORT") or 5432)]
    if settings_dict.get("USER"):
        args += ["--username", settings_dict["USER"]]
    return env, args + ["--dbname", settings_dict["NAME"], "--no-password"]


def _run(command: list[str], env: dict) -> None:
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True)
    except FileNotFoundError:
        raise BackupError(f"{command[0]} is not installed (Debian: apt-get install postgresql-client)") from None
    if done.returncode != 0:
        raise BackupError(f"{command[0]} failed: {done.stderr.strip()[-2000:]}")


def _storage_files(top: str = "") -> list[str]:
    try:
        folders, files = default_storage.listdir(top)
    except FileNotFoundError:  # a new installation's media folder, made by the first upload
        return []
    names = [f"{top}{name}" for name in files]
    for folder in folders:
        names += _storage_files(f"{top}{folder}/")
    return names


def backup(folder: Path) -> dict:
    """Write the database and the media into `folder` (new or empty); return the manifest."""
    folder = Path(folder)
    if folder.exists() and any(folder.iterdir()):
        raise BackupError(f"{folder} is not empty: a backup goes into a new or empty folder")
    folder.mkdir(parents=True, exist_ok=True)
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        source = sqlite3.connect(db["NAME"])
        target = sqlite3.connect(folder / SQLITE_FILE)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        database = SQLITE_FILE
    elif connection.vendor == "postgresql":
        env, args = _pg_env_and_args(db)
        _run(
            ["pg_dump", "--format=custom", "--no-owner", "--no-privileges", "--file", str(folder / PG_FILE), *args], env
        )
        database = PG_FILE
    else:
        raise BackupError(f"no backup for a {connection.vendor} database")

    media = folder / "media"
    for name in _storage_files():
        path = media / name
        path.parent.mkdir(parents=True, exist_ok=True)
        with default_storage.open(name, "rb") as src, open(path, "wb") as dst:
            shutil.copyfileobj(src, dst)

    files = sorted(p for p in folder.rglob("*") if p.is_file())
    manifest = {
        "dogtag": version("dogtag"),
        "engine": connection.vendor,
        "database": database,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "files": {str(p.relative_to(folder)): _sha256(p) for p in files},
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def read_manifest(folder: Path) -> dict:
    folder = Path(folder)
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except FileNotFoundError:
        raise BackupError(f"{folder} holds no {MANIFEST}: not a Dogtag backup") from None
    except ValueError as e:
        raise BackupError(f"{folder / MANIFEST} is not valid JSON ({e})") from None
    for name, digest in manifest["files"].items():
        path = folder / name
        if not path.is_file():
            raise BackupError(f"{name} is missing from the backup")
        if _sha256(path) != digest:
            raise BackupError(f"{name} does not match its checksum in {MANIFEST}: the backup is damaged")
    return manifest


def _has_data() -> bool:
    tables = connection.introspection.table_names()
    if "registry_municipality" not in tables:
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM registry_municipality LIMIT 1")
        return cursor.fetchone() is not None


def restore(folder: Path, *, replace: bool = False) -> dict:
    """Put the backup in `folder` in place of this installation's database and media."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    if manifest["engine"] != connection.vendor:
        raise BackupError(
            f"the backup is of a {manifest['engine']} database and this installation uses {connection.vendor}; "
            "move between engines with `dogtag export` and `dogtag restore`"
        )
    if _has_data() and not replace:
        raise BackupError("this installation already holds records; restore with --replace to overwrite them")
    db = connection.settings_dict
    connections.close_all()
    if connection.vendor == "sqlite":
        source = sqlite3.connect(folder / SQLITE_FILE)
        target = sqlite3.connect(db["NAME"])
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
    else:
        env, args = _pg_env_and_args(db)
        _run(
            [
                "pg_restore",
                "--clean",
                "--if-exists",
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                *args,
                str(folder / PG_FILE),
            ],
            env,
        )

    for name in sorted(n for n in manifest["files"] if n.startswith("media/")):
        stored = name.removeprefix("media/")
        if default_storage.exists(stored):
            default_storage.delete(stored)
        with open(folder / name, "rb") as f:
            saved = default_storage.save(stored, File(f, name=stored))
        if saved != stored:
            raise BackupError(f"{stored} was stored as {saved}; the storage renamed it")
    return manifest
