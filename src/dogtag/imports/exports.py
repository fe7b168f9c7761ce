"""A full export of one municipality's records: JSON lines, one file per kind
(`registry.animal.jsonl`), in Django's serialisation (model, pk, every field, many-to-many as
lists of pks), plus the municipality itself and the user accounts its records name. Password
hashes and API tokens are not exported: a restored account sets a new password.

The stored files its records name (uploads: portal evidence, site plans, the seal, import rolls;
documents: renewal batches, tag return lists) are copied under `files/`, each at its storage
name, and listed with its SHA-256 in `files.sha256` (the format `sha256sum -c` reads). A record
naming a file the storage no longer holds is listed in `files-missing.txt`.

`imports.actions.restore` reads such a directory into an empty Dogtag, and refuses, naming
each, a listed file that is missing from the export or fails its checksum."""

import hashlib
import shutil
from datetime import datetime, time
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.files.storage import default_storage
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from dogtag.imports import uploads
from dogtag.registry.models import Municipality

USER_FIELDS = [
    "username",
    "first_name",
    "last_name",
    "email",
    "is_staff",
    "is_active",
    "is_superuser",
    "last_login",
    "date_joined",
]
MANIFEST = "manifest.txt"
FILES = "files"
CHECKSUMS = "files.sha256"
MISSING = "files-missing.txt"
# Text columns holding a name in the default storage (FileFields are found by their type).
STORED_NAME_COLUMNS = {
    "licensing.renewalrun": ["pdf"],
    "licensing.renewalchunk": ["pdf"],
    "licensing.tagreturnlist": ["pdf"],
}
# Text columns holding the hash of a file kept under imports/<sha256> (imports/uploads.py).
STORED_DIGEST_COLUMNS = {"imports.importrun": ["file_sha256", "mapping_sha256", "plan_sha256"]}


def stored_names(obj) -> list[str]:
    """The storage names of the files a record names."""
    model = type(obj)
    label = model._meta.label_lower
    names = [getattr(obj, f.attname) for f in model._meta.concrete_fields if isinstance(f, models.FileField)]
    names += [getattr(obj, column) for column in STORED_NAME_COLUMNS.get(label, [])]
    names += [f"{uploads.FOLDER}/{getattr(obj, c)}" for c in STORED_DIGEST_COLUMNS.get(label, []) if getattr(obj, c)]
    return [str(name) for name in names if name]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def safe_name(name: str) -> bool:
    """A storage name that stays under files/ when joined to it."""
    parts = Path(name).parts
    return bool(parts) and not Path(name).is_absolute() and ".." not in parts


def _copy_files(names, out: Path) -> tuple[int, list[str]]:
    """Each stored file copied to out/files/<name> with its checksum listed; (copied, missing)."""
    copied, missing, lines = 0, [], []
    for name in sorted(names):
        if not safe_name(name) or not default_storage.exists(name):
            missing.append(name)
            continue
        target = out / FILES / name
        target.parent.mkdir(parents=True, exist_ok=True)
        with default_storage.open(name, "rb") as stored, open(target, "wb") as copy:
            shutil.copyfileobj(stored, copy, 1 << 20)
        lines.append(f"{sha256_of(target)}  {FILES}/{name}\n")
        copied += 1
    (out / CHECKSUMS).write_text("".join(lines), encoding="utf-8")
    if missing:
        (out / MISSING).write_text("".join(f"{name}\n" for name in missing), encoding="utf-8")
    return copied, missing


class ExactEncoder(DjangoJSONEncoder):
    """Times to the microsecond: DjangoJSONEncoder cuts them to milliseconds (ECMA-262's format),
    so a restored export would differ from the records it was made from."""

    def default(self, o):
        if isinstance(o, datetime):
            return o.isoformat().replace("+00:00", "Z")
        if isinstance(o, time):
            return o.isoformat()
        return super().default(o)


def scoped_models() -> list:
    """Every model with a `municipality` foreign key, each after the models it refers to."""
    found = [
        m
        for m in apps.get_models()
        if any(f.name == "municipality" and f.related_model is Municipality for f in m._meta.concrete_fields)
    ]
    ordered, seen = [], set()

    def visit(model, path=()):
        if model in seen or model in path:
            return
        for f in model._meta.concrete_fields:
            if f.is_relation and f.related_model in found and f.related_model is not model:
                visit(f.related_model, (*path, model))
        for f in model._meta.many_to_many:
            if f.related_model in found and f.related_model is not model:
                visit(f.related_model, (*path, model))
        seen.add(model)
        ordered.append(model)

    for model in sorted(found, key=lambda m: m._meta.label_lower):
        visit(model)
    return ordered


def _user_ids(model, rows) -> set:
    user_fields = [
        f.attname for f in model._meta.concrete_fields if f.is_relation and f.related_model is get_user_model()
    ]
    ids = set()
    for field in user_fields:
        ids |= set(rows.exclude(**{field: None}).values_list(field, flat=True))
    return ids


def file_name(model) -> str:
    return f"{model._meta.label_lower}.jsonl"


def export(municipality, directory, progress=None) -> dict:
    """Write the municipality's records under `directory`; returns {file name: rows}."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    users = set()
    models = scoped_models()
    querysets = [(Municipality, Municipality.objects.filter(pk=municipality.pk))]
    for model in models:
        rows = model._default_manager.filter(municipality=municipality).order_by("pk")
        users |= _user_ids(model, rows)
        querysets.append((model, rows))
    User = get_user_model()
    querysets.insert(1, (User, User.objects.filter(pk__in=users).order_by("pk")))
    names = set()
    for model, rows in querysets:
        fields = USER_FIELDS if model is User else None
        with open(out / file_name(model), "w", encoding="utf-8") as f:
            n = 0
            for chunk_start in range(0, 1 << 62, 5000):
                chunk = list(rows[chunk_start : chunk_start + 5000])
                if not chunk:
                    break
                serializers.serialize("jsonl", chunk, stream=f, fields=fields, cls=ExactEncoder)
                if model is not User:
                    for obj in chunk:
                        names.update(stored_names(obj))
                n += len(chunk)
            counts[file_name(model)] = n
        if progress:
            progress(model, counts[file_name(model)])
    copied, missing = _copy_files(names, out)
    (out / MANIFEST).write_text(
        "".join(f"{name}\t{n}\n" for name, n in counts.items()) + f"# Dogtag export of {municipality.slug}; "
        f"restore with `dogtag restore {out}` into an empty Dogtag ({settings.AUTH_USER_MODEL} without passwords)\n"
        f"# {copied} stored files under {FILES}/, checked by {CHECKSUMS}"
        + (f"; {len(missing)} named by records but not in storage, listed in {MISSING}" if missing else "")
        + "\n"
    )
    return counts


def files_of(directory) -> dict:
    """What an export holds of stored files: {"copied": n, "missing": [names the storage lacked]}."""
    folder = Path(directory)
    checksums = folder / CHECKSUMS
    copied = sum(1 for line in checksums.read_text().splitlines() if line) if checksums.exists() else 0
    missing = (folder / MISSING).read_text().splitlines() if (folder / MISSING).exists() else []
    return {"copied": copied, "missing": missing}
