"""Refuse a request body by its declared size before anything reads it.

Django's DATA_UPLOAD_MAX_MEMORY_SIZE bounds only the form fields, not uploaded files, and
the per-file check in lib/uploads.py runs after the whole body has arrived. This middleware
answers 413 from the Content-Length header alone: DOGTAG_REQUEST_MAX_BYTES for every URL, or
DOGTAG_IMPORT_MAX_BYTES for the clerk's roll import. A body sent without a length (chunked) is
bounded by the proxy in front (README, "Request size")."""

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.deprecation import MiddlewareMixin

LARGE_BODY_URLS = {"import"}  # URL names whose bodies may be rolls from an old system


def limit_for(path: str) -> int:
    try:
        name = resolve(path).url_name
    except Resolver404:
        name = None
    return settings.DOGTAG_IMPORT_MAX_BYTES if name in LARGE_BODY_URLS else settings.DOGTAG_REQUEST_MAX_BYTES


class BodyLimitMiddleware(MiddlewareMixin):
    def process_request(self, request):
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        limit = min(settings.DOGTAG_REQUEST_MAX_BYTES, settings.DOGTAG_IMPORT_MAX_BYTES)
        if declared <= limit or declared <= (limit := limit_for(request.path_info)):  # the URL only past both
            return None
        message = f"The request is {declared / 1_000_000:.1f} MB; the largest accepted is {limit / 1_000_000:.0f} MB."
        if request.path_info.startswith("/api/"):
            return JsonResponse({"detail": message}, status=413)
        return render(request, "413.html", {"message": message}, status=413)
