"""The client's address, for the found-dog lookup limit and the login lockout alike."""

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    """The visitor's address. Behind TRUSTED_PROXY_COUNT proxies, the X-Forwarded-For entry that
    many from the right: each trusted proxy appends the address it saw, and whatever stands
    further left the client wrote itself. A malformed entry falls back to the peer's address."""
    peer = request.META.get("REMOTE_ADDR") or "0.0.0.0"
    count = settings.TRUSTED_PROXY_COUNT
    chain = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if count <= 0 or not chain:
        return peer
    candidate = chain[-count] if len(chain) >= count else chain[0]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return peer
