"""The clerk's import pages: the upload (kept through the storage API), then the run's page,
where the worker's check is shown for the clerk to confirm, the writing's progress, the result,
and a resume button when the run was interrupted. Nothing here reads the roll: the worker does."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render

from dogtag.imports import actions, tables, uploads
from dogtag.imports.actions import IMPORTERS
from dogtag.imports.files import ENCODINGS
from dogtag.imports.models import ImportRun
from dogtag.imports.rolls import COLUMNS, SHOWN, Mapping, RollError
from dogtag.lib.tables import exports
from dogtag.lib.uploads import UploadField
from dogtag.lib.web import municipality_for, posted

RUNS_PAGE = 20


class UploadForm(forms.Form):
    roll = UploadField(label="Roll (CSV or Excel .xlsx)", limit="DOGTAG_IMPORT_MAX_BYTES")
    mapping = UploadField(
        limit="DOGTAG_IMPORT_MAX_BYTES", label="Column mapping (YAML), for another layout", required=False
    )
    encoding = forms.ChoiceField(
        label="The CSV file's encoding",
        choices=[("", "Find it from the file"), *ENCODINGS.items()],
        required=False,
    )

    def clean_mapping(self):
        mapping = self.cleaned_data.get("mapping")
        if mapping:
            if mapping.size > 1 << 20:
                raise ValidationError("A mapping is a short YAML file (under 1 MB).")
            try:
                Mapping.parse(mapping.read())
            except RollError as e:
                raise ValidationError(str(e)) from None
            mapping.seek(0)
        return mapping


@login_required
@exports(tables.runs)
def upload(request, slug, report):
    municipality = report.municipality
    form = UploadForm(posted(request), request.FILES or None)
    if request.method == "POST" and form.is_valid():
        roll, mapping = form.cleaned_data["roll"], form.cleaned_data["mapping"]
        run = actions.upload_roll(
            municipality,
            uploads.keep(roll),
            roll.name,
            acting_user=request.user,
            mapping_sha256=uploads.keep(mapping) if mapping else "",
            encoding=form.cleaned_data["encoding"],
        )
        return redirect("import-run", slug=slug, pk=run.pk)
    (runs,) = report.pages(request, RUNS_PAGE)
    context = {"municipality": municipality, "form": form, "columns": COLUMNS, "runs": runs}
    return render(request, "imports/upload.html", context)


@login_required
def run_page(request, slug, pk):
    municipality = municipality_for(request, slug, IMPORTERS)
    run = get_object_or_404(ImportRun.objects.select_related("started_by"), municipality=municipality, pk=pk)
    if request.method == "POST":
        step = {"confirm": actions.confirm_import, "resume": actions.resume_import}.get(request.POST.get("step"))
        if step is None:
            messages.error(request, "Choose confirm or resume.")
        else:
            try:
                step(run, acting_user=request.user)
            except ValidationError as e:
                messages.error(request, " ".join(e.messages))
        return redirect("import-run", slug=slug, pk=run.pk)
    context = {
        "municipality": municipality,
        "run": run,
        "state": run.state,
        "States": ImportRun.State,
        "found": run.summary,
        "shown": SHOWN,
        "working": run.state in (ImportRun.State.CHECKING, ImportRun.State.QUEUED, ImportRun.State.RUNNING),
    }
    return render(request, "imports/run.html", context)
