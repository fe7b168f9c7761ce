"""Schemathesis over the published OpenAPI document, as an authenticated clerk, officer and
veterinarian of Benton (issue 14): no input gives a server error, and every response matches
the document. A fixed, derandomized number of examples per operation keeps it bounded."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from schemathesis.checks import content_type_conformance, not_a_server_error, response_schema_conformance

from dogtag.accounts.actions import issue_api_token
from dogtag.accounts.models import Membership, Role
from tests.base import Fixtures

EXAMPLES = 6
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
