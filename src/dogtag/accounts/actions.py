"""Writes on accounts: an API token for an integration client, shown once, audited."""

import secrets

from django.db import transaction

from dogtag.accounts.models import ApiToken, hash_token
from dogtag.audit.record import record


@transaction.atomic
def issue_api_token(*, acting_user, user, name: str) -> tuple[ApiToken, str]:
    """A new bearer token for `user` (the client's account); only its hash is stored, so the raw
    token returned here is the only copy."""
    raw = "dt_" + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name, token_hash=hash_token(raw))
    record(acting_user=acting_user, action="api_token.issue", obj=token)
    return token, raw
