"""Who a bearer token speaks for, remembered for a short while; whether it still may, asked of
the database on every request.

An integration client calls the API many times a second with the same token; looking the token,
its user and the user's memberships up on every call was three of the tag lookup's seven round
trips. The user is cached with its memberships loaded (`scope.municipality_ids` reads them from
the user), for API_TOKEN_CACHE_SECONDS. Saving or deleting a token, a membership or the user drops
the cached entry in this process at once; other processes see a changed membership within the
timeout (all of them at once when CACHES names a shared cache).

A revoked token and a deactivated user are refused at once, in every process: each
request asks the database whether the token is live (`is_live`, one indexed read on the token's
unique hash joined to its user), whatever is remembered. The tag lookup in front of Django
(dogtag/lean.py) asks it inside its one query (licensing/tag_lookup.py `license_json(token_hash=)`)
and remembers only the municipalities the token's user serves (`municipalities_for_token`), in
this process's memory (no unpickling) for API_TOKEN_LOCAL_SECONDS, and never past the moment the
cached user itself expires.
"""

import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from dogtag.accounts.models import ApiToken, Membership, hash_token
from dogtag.accounts.scope import municipality_ids

PREFIX = "dogtag:api-token:"
# token hash -> (time.time() it is good until, the municipalities its user serves)
_local: dict[str, tuple[float, frozenset[int]]] = {}
LOCAL_ENTRIES = 10_000  # a bound on the memory it takes, whatever the callers send


def timeout() -> int:
    return getattr(settings, "API_TOKEN_CACHE_SECONDS", 30)


def local_timeout() -> float:
    return min(getattr(settings, "API_TOKEN_LOCAL_SECONDS", 5), timeout())


def live_tokens(token_hash):
    """The tokens with this hash that are not revoked and whose user is active (none or one)."""
    return ApiToken.objects.filter(token_hash=token_hash, revoked_at=None, user__is_active=True)


def is_live(token_hash: str) -> bool:
    return live_tokens(token_hash).exists()


def user_for_token(raw: str, is_live=is_live):
    """The active user a live token belongs to, or None. Whether the token is live is read from
    the database on every call (`is_live`, or the API's compiled once: dogtag/lean.py); only the
    user and its memberships are remembered."""
    key = PREFIX + hash_token(raw)
    user = cache.get(key) if timeout() > 0 else None
    if user is not None:
        if is_live(key[len(PREFIX) :]):
            return user
        _forget(key[len(PREFIX) :])
        return None
    found = ApiToken.objects.select_related("user").filter(token_hash=key[len(PREFIX) :], revoked_at=None).first()
    if found is None or not found.user.is_active:
        return None
    user = found.user
    user._dogtag_roles = list(Membership.objects.filter(user=user).values_list("municipality_id", "role"))
    # When this answer was read from the database: what is remembered of it is as old as this.
    user._dogtag_read_at = time.time()
    if timeout() > 0:
        cache.set(key, user, timeout())
    return user


def municipalities_for_token(raw: str) -> frozenset[int] | None:
    """The municipalities a live token's active user serves (in any role), or None: what
    `user_for_token` answers, remembered in this process (see the module's note for how long)."""
    token_hash = hash_token(raw)
    now = time.time()
    found = _local.get(token_hash)
    if found is not None and found[0] > now:
        return found[1]
    user = user_for_token(raw)
    if user is None:
        _local.pop(token_hash, None)
        return None
    served = frozenset(municipality_ids(user))
    until = min(now + local_timeout(), getattr(user, "_dogtag_read_at", now) + timeout())
    if until > now:
        if len(_local) >= LOCAL_ENTRIES:
            _local.clear()
        _local[token_hash] = (until, served)
    return served


def forget_all() -> None:
    """Nothing remembered in this process (the shared cache is the cache's to clear)."""
    _local.clear()


def _forget(token_hash: str) -> None:
    _local.pop(token_hash, None)
    cache.delete(PREFIX + token_hash)


def forget_user(user_id) -> None:
    hashes = list(ApiToken.objects.filter(user_id=user_id).values_list("token_hash", flat=True))
    if hashes:
        _forget_many(hashes)
        transaction.on_commit(lambda: _forget_many(hashes))


def _forget_many(hashes) -> None:
    for token_hash in hashes:
        _local.pop(token_hash, None)
    cache.delete_many([PREFIX + h for h in hashes])


def _token_changed(sender, instance, **kwargs):
    # Now, and again once the change is committed: a request in between may have read and
    # remembered the row as it was before.
    _forget(instance.token_hash)
    transaction.on_commit(lambda: _forget(instance.token_hash))


def _membership_changed(sender, instance, **kwargs):
    forget_user(instance.user_id)


def _user_changed(sender, instance, **kwargs):
    forget_user(instance.pk)


def connect() -> None:
    from django.contrib.auth import get_user_model

    for signal in (post_save, post_delete):
        signal.connect(_token_changed, sender=ApiToken, dispatch_uid=f"api-token-{signal}")
        signal.connect(_membership_changed, sender=Membership, dispatch_uid=f"api-token-membership-{signal}")
        signal.connect(_user_changed, sender=get_user_model(), dispatch_uid=f"api-token-user-{signal}")
