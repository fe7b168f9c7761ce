"""Refuse NUL and the other control characters in any submitted text, naming the field.

PostgreSQL cannot store U+0000 in text (a 500 where SQLite stores it), and no field Dogtag keeps
means to hold a control character; tab, line feed and carriage return stay allowed (a textarea's
own). One check for every query string, form and JSON body — the API's, the staff forms' and the
portal's — so no field can be forgotten. Uploaded files are content, not text, and are not read."""

import json
import re

from django.http import JsonResponse
from django.shortcuts import render

CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def message(value: str) -> str:
    found = CONTROL.search(value).group()
    return f"Contains the control character U+{ord(found):04X}, which is not accepted in text."


def _walk(value, path):
    """(field, message) for the first string with a control character in a JSON document."""
    if isinstance(value, str):
        if CONTROL.search(value):
            return path or "body", message(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if CONTROL.search(str(key)):
                return where, message(str(key))
            found = _walk(item, where)
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _walk(item, f"{path}.{index}" if path else str(index))
            if found:
                return found
    return None


def first_control_character(request):
    for params in (request.GET, request.POST) if request.method == "POST" else (request.GET,):
        for key, values in params.lists():
            for value in [key, *values]:
                if CONTROL.search(value):
                    return key, message(value)
    if request.content_type == "application/json" and request.body:
        try:
            document = json.loads(request.body)
        except ValueError:
            return None  # the API says what is wrong with malformed JSON
        return _walk(document, "")
    return None


class ControlCharacterMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        found = first_control_character(request)
        if found is None:
            return self.get_response(request)
        field, text = found
        if request.path_info.startswith("/api/"):
            return JsonResponse({"errors": {field: [text]}}, status=422)
        return render(request, "422.html", {"field": field, "text": text}, status=422)
