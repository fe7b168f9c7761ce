"""The tag lookup answered in front of Django's middleware (issue 12: >= 1,000 lookups a second).

`GET /api/v1/municipalities/<slug>/tags/<year>/<serial>` with a bearer token is what integration
clients call many times a second. Through Django it spends most of its CPU in the fifteen
middlewares, URL resolution and django-csp building a policy that never changes. `LeanTagLookup`
wraps Django's WSGI application (dogtag/wsgi.py) and answers exactly that request itself, with
the code the API uses for it:

- the host (ALLOWED_HOSTS), the HTTPS redirect and refused user agents checked by
  SecurityMiddleware's and CommonMiddleware's own `process_request` (`HttpRequest.get_host`);
- the token through the API's `TokenAuth` (ninja's header parsing, `accounts.tokens`' cache);
- the body from `licensing.tag_lookup.license_json`, which the API operation answers too;
- the headers that the middleware in settings.MIDDLEWARE put on that answer, taken once per
  process (and per plain/secure request) by running the real stack around it (`_Headers`);
- Django's `request_started` and `request_finished` signals around it, as Django's handler sends
  them: the database connection is checked, kept or closed (CONN_MAX_AGE, health checks) exactly
  as for any request.

Everything else goes to Django untouched, so every error keeps its one shape: another method (a
HEAD), another path, a query string, a cookie (a session's idle clock and second factor live
there), a body, a host Django refuses, a token it does not know, a tag not found (401 and 404 are
Django's answers, asked again). The lookup writes nothing on either path: no audit event, no
session. tests/licensing/test_lean_path.py compares both paths byte for byte.
"""

import io
import logging
import re

from django.conf import settings
from django.core import signals
from django.core.handlers.base import BaseHandler
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.core.signals import setting_changed
from django.http import HttpResponse
from django.middleware.common import CommonMiddleware
from django.middleware.security import SecurityMiddleware

from dogtag.accounts.scope import municipality_ids
from dogtag.api import TokenAuth
from dogtag.licensing.tag_lookup import CONTENT_TYPE, license_json

log = logging.getLogger("dogtag.api")

# The API operation's path (licensing/api.py `tag_lookup`, under /api/v1/ in dogtag/urls.py), for
# the values a slug and a serial can take; anything else (non-ASCII, a sign, a leading zero, ten
# digits) is Django's to answer.
PATH = re.compile(r"/api/v1/municipalities/([-a-zA-Z0-9_]+)/tags/([1-9][0-9]{0,8})/([1-9][0-9]{0,8})", re.ASCII)
VIEW_NAME = "api:tag_lookup"
# The middleware this path was checked against, request by request (the tests above). With any
# other list every request goes to Django, until someone checks what the new one does here.
CHECKED_MIDDLEWARE = (
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "dogtag.lib.api_errors.ApiErrorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "dogtag.lib.body_limit.BodyLimitMiddleware",
    "dogtag.lib.control_characters.ControlCharacterMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "dogtag.accounts.sessions.IdleTimeoutMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "dogtag.accounts.second_factor.SecondFactorMiddleware",
    "axes.middleware.AxesMiddleware",
)
PLACEHOLDER = b"{}"


def _nothing(request):
    raise AssertionError("a refusing middleware's process_request is only asked for its refusal")


class _Headers(BaseHandler):
    """Django's middleware stack around the lookup's answer, without the view: the headers it
    adds to a 200 of the lookup, or None if it would not let that request through as it is."""

    def __init__(self):
        super().__init__()
        self.load_middleware()

    def _get_response(self, request):
        match = self.resolve_request(request)
        if match.view_name != VIEW_NAME:
            return HttpResponse(status=500, reason=f"{request.path_info} resolves to {match.view_name}")
        for process_view in self._view_middleware:
            response = process_view(request, match.func, match.args, match.kwargs)
            if response:
                return response
        return HttpResponse(PLACEHOLDER, content_type=CONTENT_TYPE)

    def headers_for(self, environ) -> list[tuple[str, str]] | None:
        request = WSGIRequest({**environ, "wsgi.input": io.BytesIO(), "CONTENT_LENGTH": "0"})
        response = self.get_response(request)
        if response.status_code != 200 or response.cookies or response.content != PLACEHOLDER:
            log.warning("the lean tag lookup is off: Django's stack answers %s", response.status_code)
            return None
        return list(response.items())


class _Answer(list):
    """The body, as a WSGI iterable that ends the request as Django's response does."""

    def close(self):
        signals.request_finished.send(sender=WSGIHandler)


class LeanTagLookup:
    def __init__(self, django):
        self.django = django
        self.token_auth = TokenAuth()
        self._forget()
        setting_changed.connect(self._forget)

    def _forget(self, **kwargs):
        self._headers = {}  # by request.is_secure()
        self._security = SecurityMiddleware(_nothing)
        self._common = CommonMiddleware(_nothing)
        self.on = tuple(settings.MIDDLEWARE) == CHECKED_MIDDLEWARE

    def __call__(self, environ, start_response):
        answer = self.answer(environ)
        if answer is None:
            return self.django(environ, start_response)
        headers, body = answer
        start_response("200 OK", headers)
        return _Answer([body])

    def answer(self, environ) -> tuple[list, bytes] | None:
        """(headers, body) of the lookup's 200, or None for Django to answer the request."""
        if (
            not self.on
            or environ.get("REQUEST_METHOD") != "GET"
            or environ.get("QUERY_STRING")
            or environ.get("HTTP_COOKIE")
            or environ.get("CONTENT_LENGTH", "0") not in ("", "0")
            or "HTTP_TRANSFER_ENCODING" in environ
            or "HTTP_AUTHORIZATION" not in environ
        ):
            return None
        found = PATH.fullmatch(environ.get("PATH_INFO", ""))
        if found is None:
            return None
        request = WSGIRequest(environ)
        try:
            # CommonMiddleware's asks request.get_host(): a host not in ALLOWED_HOSTS raises
            # DisallowedHost (Django's 400), a refused user agent PermissionDenied (its 403).
            if self._security.process_request(request) or self._common.process_request(request):
                return None  # a redirect
        except Exception:
            return None
        secure = request.is_secure()
        if secure not in self._headers:
            self._headers[secure] = _Headers().headers_for(environ)
        headers = self._headers[secure]
        if headers is None:
            return None
        signals.request_started.send(sender=WSGIHandler, environ=environ)
        try:
            user = self.token_auth(request)
            body = None
            if user:
                slug, year, serial = found.groups()
                body = license_json(slug, int(year), int(serial), municipality_ids(user))
        except Exception:
            log.exception("the lean tag lookup failed on %s; Django answers it", request.path_info)
            body = None
        if body is None:
            signals.request_finished.send(sender=WSGIHandler)
            return None
        length = str(len(body))
        return [(name, length if name == "Content-Length" else value) for name, value in headers], body
