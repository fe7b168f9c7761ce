"""`dogtag backup` / `dogtag restore-backup`: the whole system (database and stored files) round
trips into an empty installation exactly, sessions excepted, sealed with the administrator's key in
files only their owner reads, on the engine the suite runs on (SQLite, PostgreSQL)."""

from __future__ import annotations

import json
import os
import stat
import subprocess

import pytest
from cryptography.fernet import Fernet

from tests.ops.served import DOGTAG, REPO, database, install, production_env, run

STORED = "permits/site-plans/2026/plan.pdf"
SAVE_A_FILE = (
    "from django.core.files.base import ContentFile; from django.core.files.storage import default_storage as s; "
    f"print(s.save({STORED!r}, ContentFile(b'%PDF-1.4 a site plan')))"
)
KEY = Fernet.generate_key().decode()
READ_THE_FILE = f"from django.core.files.storage import default_storage as s; print(s.open({STORED!r}).read())"


def everything(env) -> list:
    """Every row of every table, as Django sees them, but the sessions."""
    return [
        row for row in json.loads(run(env, "dumpdata", "--indent", "0").stdout) if row["model"] != "sessions.session"
    ]


def sessions(env) -> int:
    code = "from django.contrib.sessions.models import Session; print(Session.objects.count())"
    return int(run(env, "shell", "--no-imports", "-c", code).stdout)


def keyed(env, key=KEY) -> dict:
    return {**{k: v for k, v in env.items() if k != "DOGTAG_BACKUP_KEY"}, **({"DOGTAG_BACKUP_KEY": key} if key else {})}


def fails(env, *args) -> str:
    r = subprocess.run([*DOGTAG, *args], env=env, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert r.returncode != 0, r.stdout
    return r.stderr


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("source")
    with database(tmp) as url:
        env = keyed(production_env(tmp, url))
        install(env)
        assert run(env, "shell", "--no-imports", "-c", SAVE_A_FILE).stdout.strip() == STORED
        yield env, tmp


def test_a_backup_restores_the_whole_system_into_an_empty_installation(source, tmp_path):
    env, _ = source
    folder = tmp_path / "backup"
    out = run(env, "backup", str(folder)).stdout
    assert "stored files" in out
    manifest = json.loads((folder / "manifest.json").read_text())
    assert f"media/{STORED}" in manifest["files"]
    before = everything(env)
    assert any(row["model"] == "registry.animal" and row["fields"]["name"] == "Rex" for row in before)
    assert sessions(env) >= 1  # the clerk's, logged in

    with database(tmp_path / "target") as url:
        (tmp_path / "target").mkdir(exist_ok=True)
        target = keyed(production_env(tmp_path / "target", url))
        assert "Restored the backup" in run(target, "restore-backup", str(folder)).stdout
        assert everything(target) == before
        assert sessions(target) == 0
        assert run(target, "shell", "--no-imports", "-c", READ_THE_FILE).stdout.strip() == "b'%PDF-1.4 a site plan'"

        # A second restore would overwrite records: only when asked to.
        assert "already holds records; restore with --replace" in fails(target, "restore-backup", str(folder))
        run(target, "restore-backup", "--replace", str(folder))
        assert everything(target) == before


def test_a_damaged_or_foreign_backup_is_refused_and_changes_nothing(source, tmp_path):
    env, _ = source
    folder = tmp_path / "backup"
    run(env, "backup", str(folder))
    assert "is not empty" in fails(env, "backup", str(folder))
    with open(folder / "media" / (STORED + ".fernet"), "ab") as f:
        f.write(b"tampered")
    with database(tmp_path / "target") as url:
        (tmp_path / "target").mkdir(exist_ok=True)
        target = keyed(production_env(tmp_path / "target", url))
        err = fails(target, "restore-backup", str(folder))
        assert f"{STORED.rsplit('/', 1)[-1]}.fernet does not open with this key" in err and "damaged" in err
        assert "holds no manifest.json" in fails(target, "restore-backup", str(tmp_path))
        # nothing was written: the target is still without tables
        code = "from django.db import connection; print(len(connection.introspection.table_names()))"
        assert run(target, "shell", "--no-imports", "-c", code).stdout.strip() == "0"


def test_a_backup_with_no_stored_files_and_no_media_folder_is_complete(source, tmp_path):
    """A new installation, nothing uploaded yet, so no media folder: the backup is the database."""
    env, _ = source
    env = {**env, "DOGTAG_MEDIA_ROOT": str(tmp_path / "media-not-made-yet")}
    done = run(env, "backup", str(tmp_path / "backup"))
    assert "and 0 stored files into" in done.stdout and "Traceback" not in done.stderr
    manifest = json.loads((tmp_path / "backup" / "manifest.json").read_text())
    assert [name for name in manifest["files"] if not name.startswith("media/")] == [manifest["database"]]
    assert not [name for name in manifest["files"] if name.startswith("media/")]
    assert not (tmp_path / "media-not-made-yet").exists()


def test_a_backup_it_cannot_write_ends_in_a_sentence_not_a_traceback(source, tmp_path):
    env, _ = source
    (tmp_path / "a-file").write_text("not a folder")
    err = fails(env, "backup", str(tmp_path / "a-file" / "backup"))
    assert err.startswith("dogtag backup: ") and "a-file" in err
    assert "Traceback" not in err


def test_a_backup_is_private_whatever_the_umask_sealed_and_opens_only_with_its_key(source, tmp_path):
    env, _ = source
    folder = tmp_path / "backups" / "tonight"
    umask = os.umask(0o022)  # the dogtag command inherits it
    try:
        run(env, "backup", str(folder))
    finally:
        os.umask(umask)
    for path in [folder.parent, folder, *folder.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), (path, oct(mode))
    sealed = b"".join(p.read_bytes() for p in folder.rglob("*.fernet"))
    assert b"Pat Owner" not in sealed and b"a site plan" not in sealed and b"SQLite format" not in sealed

    assert "written only encrypted: set DOGTAG_BACKUP_KEY_FILE" in fails(
        keyed(env, None), "backup", str(tmp_path / "b")
    )
    assert not (tmp_path / "b").exists()
    with database(tmp_path / "target") as url:
        (tmp_path / "target").mkdir(exist_ok=True)
        target = production_env(tmp_path / "target", url)
        assert "DOGTAG_BACKUP_KEY_FILE" in fails(keyed(target, None), "restore-backup", str(folder))
        other_key = Fernet.generate_key().decode()
        assert "does not open with this key" in fails(keyed(target, other_key), "restore-backup", str(folder))
        code = "from django.db import connection; print(len(connection.introspection.table_names()))"
        assert run(target, "shell", "--no-imports", "-c", code).stdout.strip() == "0"
