"""The tag lookup (`GET /api/v1/municipalities/<slug>/tags/<year>/<serial>` with a bearer token)
answered in front of Django's middleware, which would spend most of its CPU (docs/architecture.md).

`LeanTagLookup` wraps Django's WSGI application (dogtag/wsgi.py) and answers that one request with
the API's own code: the host and HTTPS checks of SecurityMiddleware and CommonMiddleware, the
token as `TokenAuth` reads it (`accounts.tokens.municipalities_for_token`; its liveness read by
the lookup's own query), the body of `licensing.tag_lookup.license_json`, the headers the real
middleware stack puts on that answer (`_Headers`, once per process), and Django's
`request_started` and `request_finished` signals. Anything else, and every error, goes to
Django untouched. tests/licensing/test_lean_path.py compares both paths byte for byte.

The lookup's query is compiled once per database (`CompiledRows`). This is the one module of Dogtag
that uses Django's internals (the request handler and the SQL compiler): docs/architecture.md.
"""

import io
import logging
import re
import threading

from django.conf import settings
from django.core import signals
from django.core.handlers.base import BaseHandler
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.core.signals import setting_changed
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models.query import ValuesListIterable
from django.http import HttpResponse
from django.middleware.common import CommonMiddleware
from django.middleware.security import SecurityMiddleware

from dogtag.accounts.models import hash_token
from dogtag.accounts.tokens import live_tokens, municipalities_for_token
from dogtag.licensing.tag_lookup import CONTENT_TYPE, license_json, lookup_query

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
    "dogtag.lib.no_store.NoStoreMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "dogtag.lib.body_limit.BodyLimitMiddleware",
    "dogtag.lib.control_characters.ControlCharacterMiddleware",
    "dogtag.portal.language.PortalLanguageMiddleware",
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
        response = self.get_response(WSGIRequest({**environ, "wsgi.input": io.BytesIO(), "CONTENT_LENGTH": "0"}))
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
        if (headers := self._headers[secure]) is None:
            return None
        # The token as the API's TokenAuth (ninja's HttpBearer) reads it: the scheme, a space, the rest.
        scheme, _, token = environ["HTTP_AUTHORIZATION"].partition(" ")
        if scheme.lower() != "bearer":
            return None
        signals.request_started.send(sender=WSGIHandler, environ=environ)
        # No CONN_HEALTH_CHECKS round trip before the lookup's one statement: if the connection is
        # dead, the statement fails, request_finished closes it and Django's handler answers on a
        # new one.
        connections[DEFAULT_DB_ALIAS].health_check_done = True
        body = None
        try:
            served = municipalities_for_token(token)  # remembered in this process, or asked of the cache
            if served:
                slug, year, serial = found.groups()
                token_hash = hash_token(token)
                body = license_json(slug, int(year), int(serial), served, token_hash=token_hash, read=_LOOKUP.rows)
        except Exception:
            log.exception("the lean tag lookup failed on %s; Django answers it", request.path_info)
        if body is None:
            signals.request_finished.send(sender=WSGIHandler)
            return None
        length = str(len(body))
        return [(name, length if name == "Content-Length" else value) for name, value in headers], body


class CompiledRows:
    """`CompiledRows(lambda slug, serial: Tag.objects.filter(...).values_list(...), slug="\\x00s\\x00",
    serial=2_147_483_001)`; `.rows("default", slug="benton", serial=300)` runs it."""

    def __init__(self, build, **stand_ins):
        self.build, self.stand_ins = build, stand_ins
        self._plans, self._lock = {}, threading.Lock()

    def _plan(self, connection):
        key = (connection.alias, connection.vendor)
        if key not in self._plans:
            with self._lock:
                queryset = self.build(**self.stand_ins).using(connection.alias)
                if queryset._iterable_class is not ValuesListIterable:
                    raise TypeError("CompiledRows runs a values_list() queryset")
                compiler = queryset.query.get_compiler(connection=connection)
                sql, params = compiler.as_sql()
                arguments = [self._argument(p) for p in params]
                if {a[1] for a in arguments if a[0] == "value"} != set(self.stand_ins):
                    raise ValueError("the query does not take every stand-in")
                fields = [s[0] for s in compiler.select[: compiler.col_count]]
                self._plans[key] = (sql, arguments, sorted(compiler.get_converters(fields).items()))
        return self._plans[key]

    def _argument(self, param):
        """("constant", value, None) or ("value", argument name, the backend's wrapping or None)."""
        for name, stand_in in self.stand_ins.items():
            if isinstance(param, type(stand_in)) and param == stand_in:
                # The value itself, or wrapped by the backend (psycopg's Int4 for an integer column).
                return ("value", name, None if type(param) is type(stand_in) else type(param))
        return ("constant", param, None)

    def rows(self, using: str, **values) -> list[tuple]:
        connection = connections[using]
        sql, arguments, converters = self._plan(connection)
        params = [
            v if kind == "constant" else values[v] if wrap is None else wrap(values[v]) for kind, v, wrap in arguments
        ]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if not converters:
            return rows
        converted = []
        for row in rows:
            row = list(row)
            for position, (functions, expression) in converters:
                for function in functions:
                    row[position] = function(row[position], expression, connection)
            converted.append(tuple(row))
        return converted


# The lookup's query (with the token's liveness), compiled once; stand-ins no column holds.
_LOOKUP = CompiledRows(
    lookup_query, slug="\x00slug\x00", year=2_147_482_001, serial=2_147_482_002, token_hash="\x00token\x00"
)
_LIVE = CompiledRows(lambda token_hash: live_tokens(token_hash).values_list("pk"), token_hash="\x00token\x00")


def token_is_live(token_hash: str) -> bool:
    """accounts.tokens `is_live`, compiled once: the API asks it on every request with a token."""
    return bool(_LIVE.rows(DEFAULT_DB_ALIAS, token_hash=token_hash))
