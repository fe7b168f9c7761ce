"""A clinic's certificate file on the web: the upload (by the clinic's veterinarian, or the clerk
for the clinic), the mapping of its columns onto the layout (remembered for the clinic), what the
worker's check found for confirmation, and the result. Nothing here reads past the file's header:
the worker checks and writes it."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render

from dogtag.accounts.scope import has_role
from dogtag.imports import canvass, uploads
from dogtag.imports.actions import canvass as canvassing
from dogtag.imports.actions import clinics as actions
from dogtag.imports.clinics import LAYOUT, guess
from dogtag.imports.files import RollError, open_table
from dogtag.imports.models import Clinic, ClinicFile
from dogtag.lib.tables import exports
from dogtag.lib.uploads import UploadField
from dogtag.lib.web import municipality_for, posted, run_action


class UploadForm(forms.Form):
    clinic = forms.CharField(label="Clinic", max_length=200, help_text="The clinic whose certificates these are.")
    certificates = UploadField(label="Certificates (CSV or Excel .xlsx)", limit="DOGTAG_IMPORT_MAX_BYTES")

    def __init__(self, *args, own_clinic=None, **kwargs):
        super().__init__(*args, **kwargs)
        if own_clinic is not None:  # a veterinarian's files are the clinic's the account is tied to
            del self.fields["clinic"]


class MappingForm(forms.Form):
    date_format = forms.CharField(
        label="Dates in the file are written as",
        max_length=20,
        help_text=("e.g. %m/%d/%Y for month, day and year with slashes; %Y-%m-%d for year, month and day with dashes"),
    )

    def __init__(self, data, *, header, initial):
        super().__init__(data, initial=initial)
        choices = [("", "— not in this file —"), *((h, h) for h in header if h)]
        for column, label, required in LAYOUT:
            self.fields[column] = forms.ChoiceField(
                label=label, choices=choices, required=False, help_text="required" if required else ""
            )


@login_required
def upload(request, slug):
    municipality = municipality_for(request, slug, actions.UPLOADERS)
    own = actions.own_clinic(request.user, municipality)
    form = UploadForm(posted(request), request.FILES or None, own_clinic=own)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["certificates"]
        digest = uploads.keep(upload)
        try:
            with uploads.local_copy(digest) as path:
                header = open_table(path, upload.name).header
        except RollError as e:
            form.add_error("certificates", str(e))
        else:
            clinic_file = run_action(
                form,
                actions.upload_clinic_file,
                municipality,
                fields={
                    "clinic_name": form.cleaned_data.get("clinic", ""),
                    "digest": digest,
                    "name": upload.name,
                    "header": header,
                },
                acting_user=request.user,
            )
            if clinic_file is not None:
                return redirect("clinic-file", slug=slug, pk=clinic_file.pk)
    context = {
        "municipality": municipality,
        "form": form,
        "layout": LAYOUT,
        "own_clinic": own,
        "clinics": Clinic.objects.filter(municipality=municipality),
        "files": ClinicFile.objects.filter(municipality=municipality).select_related("clinic")[:20],
    }
    return render(request, "imports/clinic_upload.html", context)


@login_required
def file_page(request, slug, pk):
    municipality = municipality_for(request, slug, actions.UPLOADERS)
    clinic_file = get_object_or_404(ClinicFile.objects.select_related("clinic"), municipality=municipality, pk=pk)
    state = clinic_file.state
    initial = {**guess(clinic_file.header, clinic_file.clinic.columns), "date_format": clinic_file.clinic.date_format}
    form = MappingForm(
        posted(request) if state == ClinicFile.State.MAPPING else None, header=clinic_file.header, initial=initial
    )
    if request.method == "POST":
        if request.POST.get("step") == "confirm":
            try:
                actions.confirm_clinic_file(clinic_file, acting_user=request.user)
            except ValidationError as e:
                messages.error(request, " ".join(e.messages))
            return redirect("clinic-file", slug=slug, pk=pk)
        if form.is_valid():
            columns = {c: form.cleaned_data[c] for c, _, _ in LAYOUT}
            done = run_action(
                form,
                actions.map_clinic_file,
                clinic_file,
                fields={"columns": columns, "date_format": form.cleaned_data["date_format"]},
                acting_user=request.user,
            )
            if done is not None:
                return redirect("clinic-file", slug=slug, pk=pk)
    context = {
        "municipality": municipality,
        "file": clinic_file,
        "state": state,
        "States": ClinicFile.State,
        "form": form,
        "found": clinic_file.summary,
        "working": state in (ClinicFile.State.CHECKING, ClinicFile.State.WRITING),
        "can_canvass": has_role(request.user, municipality.pk, canvassing.CLERKS),
    }
    return render(request, "imports/clinic_file.html", context)


def _canvass_list(request, slug, pk):
    return canvass.canvass_list(request, slug, pk, canvassing.CLERKS)


@login_required
@exports(_canvass_list)
def canvass_page(request, slug, pk, report):
    """The file's animals vaccinated with no license in force; the clerk asks the worker to send
    their owners an invitation to license."""
    clinic_file = report.clinic_file
    if request.method == "POST":
        try:
            canvassing.canvass_clinic_file(clinic_file, acting_user=request.user)
        except ValidationError as e:
            messages.error(request, " ".join(e.messages))
        else:
            messages.success(request, "The invitations are being sent; this list shows each one as it goes.")
        return redirect("clinic-file-canvass", slug=slug, pk=pk)
    (shown,) = report.pages(request)
    context = {
        "municipality": report.municipality,
        "file": clinic_file,
        "year": report.license_year,
        "rows": shown,
        "finished": clinic_file.state == ClinicFile.State.FINISHED,
    }
    return render(request, "imports/canvass.html", context)
