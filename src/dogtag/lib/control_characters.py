"""Refuse NUL, the other control characters and lone surrogates in any submitted text, and JSON
nested deeper than any of Dogtag's documents, naming the field.

PostgreSQL cannot store U+0000 in text (a 500 where SQLite stores it), a lone surrogate cannot
be encoded at all, and no field Dogtag keeps means to hold a control character; tab, line feed
and carriage return stay allowed (a textarea's own). One check for every URL path, query string,
form and body that is not a form — the API reads a body as JSON whatever its declared type — so no
field can be forgotten. Uploaded files are content, not text, and are not read."""

import json
import re

from django.http import JsonResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.deprecation import MiddlewareMixin

CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")
# Dogtag's deepest document (a declaration's incidents, a question's facts) is a few levels deep.
MAX_DEPTH = 32


def message(value: str) -> str:
    found = ord(CONTROL.search(value).group())
    if 0xD800 <= found <= 0xDFFF:
        return f"Contains the lone surrogate U+{found:04X}, which is not a character."
    return f"Contains the control character U+{found:04X}, which is not accepted in text."


TOO_DEEP = f"The JSON is nested deeper than {MAX_DEPTH} levels; no Dogtag document is."


def _walk(document):
    """(field, message) for the first string with a control character in a JSON document, or
    for a document nested deeper than MAX_DEPTH. Iterative: depth costs no stack."""
    pending = [(document, "", 0)]
    while pending:
        value, path, depth = pending.pop()
        if depth > MAX_DEPTH:
            return "body", TOO_DEEP
        if isinstance(value, str):
            if CONTROL.search(value):
                return path or "body", message(value)
        elif isinstance(value, dict | list):
            children = []
            for key, item in value.items() if isinstance(value, dict) else enumerate(value):
                where = f"{path}.{key}" if path else str(key)
                if CONTROL.search(str(key)):  # a list's index never has one
                    return where, message(str(key))
                children.append((item, where, depth + 1))
            pending.extend(reversed(children))
    return None


def _in_path(request):
    """A URL parameter with a control character, by its name; a path no URL matches is a 404."""
    if not CONTROL.search(request.path_info):
        return None
    try:
        kwargs = resolve(request.path_info).kwargs
    except Resolver404:
        return None
    for name, value in kwargs.items():
        if isinstance(value, str) and CONTROL.search(value):
            return name, message(value)
    return "path", message(request.path_info)


def _in_body(request):
    if request.content_type in FORM_TYPES or not request.body:
        return None
    try:
        document = json.loads(request.body)
    except RecursionError:
        return "body", TOO_DEEP
    except ValueError:
        return None  # not JSON: the API says what is wrong with it, a page does not read it
    return _walk(document)


def _in_params(request):
    for params in (request.GET, request.POST):  # request.POST is empty unless a form was posted
        for key, values in params.lists():
            for value in [key, *values]:
                if CONTROL.search(value):
                    return key, message(value)
    return None


class ControlCharacterMiddleware(MiddlewareMixin):
    def process_request(self, request):
        found = _in_path(request) or _in_params(request) or _in_body(request)
        if found is None:
            return None
        field, text = found
        if request.path_info.startswith("/api/"):
            return JsonResponse({"errors": {field: [text]}}, status=422)
        return render(request, "422.html", {"field": field, "text": text}, status=422)
