"""Every error the API gives is JSON, a server error included: a client never parses an HTML page.

django-ninja answers its own errors in JSON; this catches the rest — an exception a view did not
expect, Django's 404 for an unknown API URL, a 405, a 400 from a malformed body."""

import logging

from django.http import JsonResponse
from django.utils.deprecation import MiddlewareMixin

log = logging.getLogger("dogtag.api")
PREFIX = "/api/"
PAGES = ("/api/v1/docs",)  # the human-readable documentation stays HTML
SERVER_ERROR = "Something went wrong on our side; nothing was saved. Try again, or tell your administrator the time."


def _is_api(request) -> bool:
    return request.path_info.startswith(PREFIX) and not request.path_info.startswith(PAGES)


class ApiErrorsMiddleware(MiddlewareMixin):
    def process_response(self, request, response):
        if not _is_api(request) or response.status_code < 400:
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        json = JsonResponse({"detail": response.reason_phrase}, status=response.status_code)
        if response.has_header("Allow"):
            json["Allow"] = response["Allow"]
        return json

    def process_exception(self, request, exception):
        if not _is_api(request):
            return None
        log.exception("API server error on %s %s", request.method, request.path)
        return JsonResponse({"detail": SERVER_ERROR}, status=500)
