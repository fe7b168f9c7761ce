"""Schemathesis over the published OpenAPI document, as an authenticated clerk, officer and
veterinarian of Benton (issue 14): no input gives a server error, and every response matches
the document. A fixed, derandomized number of examples per operation keeps it bounded."""

import json
import os
import re
from urllib.parse import quote

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import content_type_conformance, not_a_server_error, response_schema_conformance

from dogtag.accounts.actions import issue_api_token
from dogtag.accounts.models import Membership, Role
from tests.base import Fixtures

# Examples per operation; a nightly-sized run raises it (README, "Tests"): DOGTAG_FUZZ_EXAMPLES=200.
EXAMPLES = int(os.environ.get("DOGTAG_FUZZ_EXAMPLES", 6))
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


class Target:
    pass


@pytest.fixture(scope="module")
def token(django_db_setup, django_db_blocker):
    """Benton's records and a token, built once for every operation: each test's own
    transaction (the `db` fixture) rolls back inside this one."""
    # In-process WSGI calls start and end with signals that would close the test's connection
    # (Django's own test client disconnects them the same way).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            t = Target()
            Fixtures.build(t)
            for role in (Role.CLERK, Role.OFFICER, Role.VETERINARIAN):
                Membership.objects.get_or_create(user=t.clerk, municipality=t.benton, role=role)
            yield issue_api_token(acting_user=t.clerk, user=t.clerk, name="fuzz")[1]
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            request_started.connect(close_old_connections)
            request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_is_a_server_error_and_every_response_is_as_documented(case, token, db):
    case.call_and_validate(headers={"Authorization": f"Bearer {token}"}, checks=CHECKS)


# Beyond the document: what a client can send that the schema does not describe. Every operation
# gets bodies of any JSON (nested deeper than any document) sent as text/plain, as
# application/octet-stream and with no type at all, and its path parameters as any text.
DOCUMENT = schema.raw_schema
OPERATIONS = [
    (method.upper(), path)
    for path, operations in DOCUMENT["paths"].items()
    for method in operations
    if method in ("get", "post", "put", "patch", "delete")
]
TEXT = st.text(st.characters(codec="utf-8") | st.sampled_from(["\x00", "\x1b", "\ud800", "\udfff"]), max_size=20)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=10,
)
NESTED = st.integers(min_value=1, max_value=5000).map(lambda depth: "[" * depth + "]" * depth)
FIELDS = st.dictionaries(st.sampled_from(["name", "kind", "complaint_id", "violated_on", "altered_evidence"]), JSON)


def _path(template: str, value: str) -> str:
    return re.sub(r"\{[^}]+\}", quote(value, safe=""), template)


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    body=st.one_of(JSON.map(json.dumps), FIELDS.map(json.dumps), NESTED, st.binary(max_size=40)),
    content_type=st.sampled_from(["text/plain", "", "application/octet-stream", "application/json"]),
    parameter=st.one_of(TEXT.filter(lambda s: s and "/" not in s), st.integers().map(str)),
)
def test_no_body_of_any_type_and_no_path_parameter_is_a_server_error(
    method, path, body, content_type, parameter, token, db
):
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}", raise_request_exception=False)
    response = client.generic(method, _path(path, parameter), body, content_type=content_type)
    assert response.status_code < 500, (method, path, parameter, body[:200], response.content[:300])
    assert response["Content-Type"].startswith("application/json")
