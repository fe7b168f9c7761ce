"""Which card processor a municipality takes payments through, and that account's secrets.

Read from the environment by the municipality's slug, or from a secret file named by the
`_FILE` variant (lib/env.py), at the moment they are needed: never stored in the database,
never shown on a screen. For Cedarburg on Stripe:

    DOGTAG_PROCESSOR_CEDARBURG=stripe
    DOGTAG_STRIPE_CEDARBURG_SECRET_KEY_FILE=/run/secrets/stripe-cedarburg-key
    DOGTAG_STRIPE_CEDARBURG_WEBHOOK_SECRET_FILE=/run/secrets/stripe-cedarburg-webhook
    DOGTAG_ONLINE_REVIEW_CEDARBURG=true   # the clerk reviews before the license is issued
    DOGTAG_CONVENIENCE_FEE_REFUNDED_CEDARBURG=true   # a full refund hands back the card fee too
"""

import re

from dogtag.lib.env import ImproperlyConfiguredEnv, envbool, envstr

PROCESSORS = ("stripe", "hosted")


def _slug(municipality) -> str:
    return re.sub(r"[^A-Z0-9]", "_", municipality.slug.upper())


def processor_of(municipality) -> str | None:
    """The processor the municipality has connected, or None (pay at the counter only)."""
    name = f"DOGTAG_PROCESSOR_{_slug(municipality)}"
    value = (envstr(name) or "").strip().lower()
    if value and value not in PROCESSORS:
        raise ImproperlyConfiguredEnv(f"{name}={value!r}: expected one of {', '.join(PROCESSORS)}")
    return value or None


def secret(municipality, processor: str, key: str) -> str:
    """DOGTAG_<PROCESSOR>_<MUNICIPALITY>_<KEY> (or its `_FILE`); refused, naming the variable, when unset."""
    if value := optional(municipality, processor, key):
        return value
    name = f"DOGTAG_{processor.upper()}_{_slug(municipality)}_{key}"
    raise ImproperlyConfiguredEnv(f"{name} is not set: {municipality} has not connected its {processor} account")


def optional(municipality, processor: str, key: str) -> str:
    return (envstr(f"DOGTAG_{processor.upper()}_{_slug(municipality)}_{key}") or "").strip()


def review_first(municipality) -> bool:
    """True when the clerk reviews an application paid online before its license is issued."""
    return envbool(f"DOGTAG_ONLINE_REVIEW_{_slug(municipality)}", False)


def forfeitures_online(municipality) -> bool:
    """True when the municipality takes citations' forfeitures online (its own choice:
    DOGTAG_ONLINE_FORFEITURES_<MUNICIPALITY>, default false, paid at the court or the counter)."""
    return envbool(f"DOGTAG_ONLINE_FORFEITURES_{_slug(municipality)}", False)


def refunds_convenience_fee(municipality) -> bool:
    """True when a full card refund (a voided license, a rejected application) also hands back
    the card convenience fee: the municipality's own setting, no law's
    (DOGTAG_CONVENIENCE_FEE_REFUNDED_<MUNICIPALITY>, default false: the processor kept its cost)."""
    return envbool(f"DOGTAG_CONVENIENCE_FEE_REFUNDED_{_slug(municipality)}", False)
