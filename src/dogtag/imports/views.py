"""The clerk's upload page: the file is kept in media storage under imports/ by its hash, the dry
run shown, and the import run only when the clerk confirms what it found."""

import hashlib
import re

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.shortcuts import redirect, render

from dogtag.imports.actions import IMPORTERS, run_import
from dogtag.imports.models import ImportRun
from dogtag.imports.rolls import COLUMNS, Mapping, RollError, plan
from dogtag.lib.tables import Report, Table, respond
from dogtag.lib.web import municipality_for, posted


class UploadForm(forms.Form):
    roll = forms.FileField(label="Roll (CSV or Excel .xlsx)")
    mapping = forms.FileField(label="Column mapping (YAML), for another layout", required=False)


def _store(upload) -> str:
    content = upload.read()
    digest = hashlib.sha256(content).hexdigest()
    if not default_storage.exists(f"imports/{digest}"):  # the same file twice is one stored file
        default_storage.save(f"imports/{digest}", ContentFile(content))
    return digest


def _load(digest):
    if not re.fullmatch(r"[0-9a-f]{64}", digest or ""):
        return None
    try:
        with default_storage.open(f"imports/{digest}", "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


@login_required
def upload(request, slug):
    municipality = municipality_for(request, slug, IMPORTERS)
    form = UploadForm(posted(request), request.FILES or None)
    context = {"municipality": municipality, "form": form, "columns": COLUMNS}
    if request.method == "POST" and request.POST.get("confirm"):
        content, name = _load(request.POST["confirm"]), request.POST.get("name", "roll.csv")
        mapping_digest = request.POST.get("mapping", "")
        mapping_text = _load(mapping_digest) if mapping_digest else None
        if content is None:
            messages.error(request, "That upload is no longer here; upload the file again.")
            return redirect("import", slug=slug)
        try:
            found = plan(municipality, name, content, Mapping.parse(mapping_text))
        except RollError as e:
            messages.error(request, str(e))
            return redirect("import", slug=slug)
        run = run_import(found, acting_user=request.user, municipality=municipality)
        messages.success(
            request,
            f"Imported {run.written} rows from {name}; {run.skipped} already imported or repeated, "
            f"{run.invalid} invalid.",
        )
        return redirect("import", slug=slug)
    if request.method == "POST" and form.is_valid():
        roll, mapping_file = form.cleaned_data["roll"], form.cleaned_data["mapping"]
        digest = _store(roll)
        mapping_digest = _store(mapping_file) if mapping_file else ""
        try:
            found = plan(
                municipality, roll.name, _load(digest), Mapping.parse(_load(mapping_digest) if mapping_digest else None)
            )
        except RollError as e:
            form.add_error("roll", str(e))
        else:
            context.update({"found": found, "digest": digest, "mapping_digest": mapping_digest, "name": roll.name})
    runs = ImportRun.objects.filter(municipality=municipality).select_related("started_by")
    if request.GET.get("format") == "csv":
        table = Table("Imports", ["File", "By", "Started", "Rows", "Written", "Skipped", "Invalid"])
        table.rows = [
            [
                r.file_name,
                r.started_by.username,
                r.started_at.isoformat(timespec="seconds"),
                r.rows,
                r.written,
                r.skipped,
                r.invalid,
            ]
            for r in runs
        ]
        return respond(request, Report("Imports", str(municipality), [table]), municipality, "imports")
    context["runs"] = runs[:20]
    return render(request, "imports/upload.html", context)
