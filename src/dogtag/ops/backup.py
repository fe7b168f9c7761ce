"""A backup of the whole system in one folder: the database and every stored file, with a manifest
of checksums, restorable into an empty installation.

- SQLite: the sqlite3 online backup API (a consistent copy while clerks keep working; WAL included).
- PostgreSQL: `pg_dump --format=custom` and `pg_restore` (the server's own tools, matched to it).
- Media: every file of the default storage, read and written through the storage API, so a backup
  taken from an object store restores onto a disk and back.
- Secrets: the sessions are left out (a restore also ends any it finds); everything else, owners'
  data, second-factor keys and tokens included, is sealed with the administrator's key
  (ops/sealed.py), in files and folders only their owner can read (0600, 0700) whatever the umask.

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
import tempfile
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from django.conf import settings
from django.core.files import File
from django.core.files.storage import default_storage
from django.db import connection, connections

from dogtag.ops import sealed

MANIFEST = "manifest.json"
SQLITE_FILE = "database.sqlite3"
PG_FILE = "database.pgdump"


class BackupError(Exception):
    pass


SESSIONS = "django_session"  # logins, past the second factor: never in a backup


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


def backup(folder: Path, key: str | None = None) -> dict:
    """Write the database (without its sessions) and the media into `folder` (new or empty), each
    file sealed with `key` (default: DOGTAG_BACKUP_KEY); return the manifest."""
    folder = Path(folder)
    try:
        f = sealed.fernet(key or settings.DOGTAG_BACKUP_KEY)
    except sealed.SealError as e:
        raise BackupError(str(e)) from None
    if folder.exists() and any(folder.iterdir()):
        raise BackupError(f"{folder} is not empty: a backup goes into a new or empty folder")
    _private_folder(folder)
    with tempfile.TemporaryDirectory(prefix="dogtag-backup-") as work:
        plain = Path(work)
        database = _write_database(plain)
        for name in _storage_files():
            path = plain / "media" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            with default_storage.open(name, "rb") as src, sealed.private_file(path) as dst:
                shutil.copyfileobj(src, dst)
        files = {}
        for path in sorted(p for p in plain.rglob("*") if p.is_file()):
            name = str(path.relative_to(plain))
            target = folder / (name + sealed.SUFFIX)
            _private_folder(target.parent)
            files[name] = sealed.seal(f, path, target)
    manifest = {
        "dogtag": version("dogtag"),
        "engine": connection.vendor,
        "database": database,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "sealed": "fernet",
        "files": files,
    }
    with sealed.private_file(folder / MANIFEST) as out:
        out.write((json.dumps(manifest, indent=2) + "\n").encode())
    return manifest


def _private_folder(folder: Path) -> None:
    """`folder`, and the folders above it that this makes, readable by their owner only (0700,
    whatever the umask); folders above it that exist already are left as they are."""
    missing = [folder, *(p for p in folder.parents if not p.exists())] if not folder.exists() else [folder]
    for path in reversed(missing):
        path.mkdir(exist_ok=True)
        os.chmod(path, 0o700)


def _write_database(plain: Path) -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        source = sqlite3.connect(db["NAME"])
        target = sqlite3.connect(plain / SQLITE_FILE)
        try:
            source.backup(target)
            # secure_delete overwrites the rows' pages, so no session key is left in free space.
            target.execute("PRAGMA secure_delete = ON")
            target.execute(f"DELETE FROM {SESSIONS}")
            target.commit()
        except sqlite3.OperationalError as e:
            if "no such table" not in str(e):
                raise
        finally:
            target.close()
            source.close()
        os.chmod(plain / SQLITE_FILE, 0o600)
        return SQLITE_FILE
    if connection.vendor == "postgresql":
        env, args = _pg_env_and_args(db)
        _run(
            [
                "pg_dump",
                "--format=custom",
                "--no-owner",
                "--no-privileges",
                f"--exclude-table-data={SESSIONS}",
                "--file",
                str(plain / PG_FILE),
                *args,
            ],
            env,
        )
        os.chmod(plain / PG_FILE, 0o600)
        return PG_FILE
    raise BackupError(f"no backup for a {connection.vendor} database")


def read_manifest(folder: Path) -> dict:
    folder = Path(folder)
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except FileNotFoundError:
        raise BackupError(f"{folder} holds no {MANIFEST}: not a Dogtag backup") from None
    except ValueError as e:
        raise BackupError(f"{folder / MANIFEST} is not valid JSON ({e})") from None
    if manifest.get("sealed"):
        return manifest  # checked as each file is opened (_opened)
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


def _opened(folder: Path, manifest: dict, key: str | None, work: Path) -> Path:
    """The folder holding the backup's plain files: `folder` itself for a backup written before
    backups were sealed, else `work`, where each file is opened with `key` and checked."""
    if not manifest.get("sealed"):
        return folder
    if manifest["sealed"] != "fernet":
        raise BackupError(f"the backup is sealed with {manifest['sealed']!r}, which this Dogtag cannot open")
    try:
        f = sealed.fernet(key or settings.DOGTAG_BACKUP_KEY)
        for name, digest in manifest["files"].items():
            path = folder / (name + sealed.SUFFIX)
            if not path.is_file():
                raise BackupError(f"{name} is missing from the backup")
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            if sealed.open_sealed(f, path, work / name) != digest:
                raise BackupError(f"{name} does not match its checksum in {MANIFEST}: the backup is damaged")
    except sealed.SealError as e:
        raise BackupError(str(e)) from None
    return work


def restore(folder: Path, *, replace: bool = False, key: str | None = None) -> dict:
    """Put the backup in `folder` in place of this installation's database and media; end every
    session it holds (a backup made before sessions were left out has them)."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    if manifest["engine"] != connection.vendor:
        raise BackupError(
            f"the backup is of a {manifest['engine']} database and this installation uses {connection.vendor}; "
            "move between engines with `dogtag export` and `dogtag restore`"
        )
    if _has_data() and not replace:
        raise BackupError("this installation already holds records; restore with --replace to overwrite them")
    with tempfile.TemporaryDirectory(prefix="dogtag-restore-") as work:
        _restore(_opened(folder, manifest, key, Path(work)), manifest)
    with connection.cursor() as cursor:
        if SESSIONS in connection.introspection.table_names(cursor):
            cursor.execute(f"DELETE FROM {SESSIONS}")
    return manifest


def _restore(folder: Path, manifest: dict) -> None:
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
