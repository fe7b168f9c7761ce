"""Check one API response against the published OpenAPI document (jsonschema, draft 2020-12)."""

import json
import re
from functools import cache

from jsonschema import Draft202012Validator

SKIP = ("/api/v1/openapi.json", "/api/v1/docs")


@cache
def document():
    from dogtag.api import api

    return api.get_openapi_schema()


@cache
def routes():
    found = []
    for route, operations in document()["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^/]+\}", "[^/]+", route) + "/?$")
        found.append((pattern, operations))
    return found


def operation_of(method: str, path: str):
    for pattern, operations in routes():
        if pattern.match(path) and method.lower() in operations:
            return operations[method.lower()]
    return None


def violations_of(environ, response) -> list[str]:
    path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "GET")
    if not path.startswith("/api/") or path.startswith(SKIP):
        return []
    where = f"{method} {path} -> {response.status_code}"
    if not response.get("Content-Type", "").startswith("application/json"):
        return [f"{where}: not JSON ({response.get('Content-Type')})"]
    operation = operation_of(method, path)
    if operation is None:
        return [] if response.status_code in (404, 405) else [f"{where}: no such operation in the document"]
    declared = operation["responses"].get(str(response.status_code))
    if declared is None:
        return [f"{where}: status not in the document ({', '.join(operation['responses'])})"]
    schema = declared.get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        return []
    validator = Draft202012Validator({**schema, "components": document()["components"]})
    body = json.loads(response.content or b"null")
    errors = validator.iter_errors(body)
    return [f"{where}: {'.'.join(map(str, e.absolute_path)) or 'body'}: {e.message}" for e in errors][:5]
