"""A full export of one municipality's records: JSON lines, one file per kind
(`registry.animal.jsonl`), in Django's serialisation (model, pk, every field, many-to-many as
lists of pks), plus the municipality itself and the user accounts its records name. Password
hashes and API tokens are not exported: a restored account sets a new password.

`imports.actions.restore` reads such a directory into an empty Dogtag."""

from datetime import datetime, time
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder

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
    for model, rows in querysets:
        fields = USER_FIELDS if model is User else None
        with open(out / file_name(model), "w", encoding="utf-8") as f:
            n = 0
            for chunk_start in range(0, 1 << 62, 5000):
                chunk = list(rows[chunk_start : chunk_start + 5000])
                if not chunk:
                    break
                serializers.serialize("jsonl", chunk, stream=f, fields=fields, cls=ExactEncoder)
                n += len(chunk)
            counts[file_name(model)] = n
        if progress:
            progress(model, counts[file_name(model)])
    (out / MANIFEST).write_text(
        "".join(f"{name}\t{n}\n" for name, n in counts.items()) + f"# Dogtag export of {municipality.slug}; "
        f"restore with `dogtag restore {out}` into an empty Dogtag ({settings.AUTH_USER_MODEL} without passwords)\n"
    )
    return counts
