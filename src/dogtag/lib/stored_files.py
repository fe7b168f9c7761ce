"""A stored file (an upload: a site plan, a rabies certificate, a seal) sent to the browser; when the
record names a file the storage no longer holds (lost, or records restored without their files) a
404 page that says which and what to do, never a 500. And a file the worker prints, saved over
what a run that did not commit left under the same name."""

from django.core.files.storage import default_storage
from django.http import FileResponse, HttpResponse
from django.shortcuts import render


def stored_file_response(request, field, what: str, **response) -> HttpResponse:
    try:
        opened = field.open("rb")
    except FileNotFoundError:
        context = {"what": what, "name": field.name.rsplit("/", 1)[-1]}
        return render(request, "stored_file_missing.html", context, status=404)
    return FileResponse(opened, **response)


def save_over(name: str, content) -> str:
    """`content` saved as `name` in the default storage, in place of a file a run that did not
    commit left there (a rerun writes the same name); returns the name saved."""
    if default_storage.exists(name):
        default_storage.delete(name)
    return default_storage.save(name, content)
