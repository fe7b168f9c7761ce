"""Who a bearer token speaks for, remembered for a short while.

An integration client calls the API many times a second with the same token; looking the token,
its user and the user's memberships up on every call was three of the tag lookup's seven round
trips. The user is cached with its memberships loaded (`scope.municipality_ids` reads them from
the user), for API_TOKEN_CACHE_SECONDS. Saving or deleting a token, a membership or the user drops
the cached entry in this process at once; other processes see a revocation within the timeout
(all of them at once when CACHES names a shared cache).
"""

from django.conf import settings
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save

from dogtag.accounts.models import ApiToken, Membership, hash_token

PREFIX = "dogtag:api-token:"


def timeout() -> int:
    return getattr(settings, "API_TOKEN_CACHE_SECONDS", 30)


def user_for_token(raw: str):
    """The active user a live token belongs to, or None."""
    key = PREFIX + hash_token(raw)
    user = cache.get(key) if timeout() > 0 else None
    if user is not None:
        return user
    found = ApiToken.objects.select_related("user").filter(token_hash=key[len(PREFIX) :], revoked_at=None).first()
    if found is None or not found.user.is_active:
        return None
    user = found.user
    user._dogtag_roles = list(Membership.objects.filter(user=user).values_list("municipality_id", "role"))
    if timeout() > 0:
        cache.set(key, user, timeout())
    return user


def forget_user(user_id) -> None:
    hashes = ApiToken.objects.filter(user_id=user_id).values_list("token_hash", flat=True)
    cache.delete_many([PREFIX + h for h in hashes])


def _token_changed(sender, instance, **kwargs):
    cache.delete(PREFIX + instance.token_hash)


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
