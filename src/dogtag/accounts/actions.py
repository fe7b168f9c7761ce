"""Writes on accounts: a staff user's second factor (django-otp's TOTP devices) and an API token for
an integration client. One transaction and one audit event each, as everywhere; the audit trail
never holds the device's secret."""

import copy
import secrets

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from dogtag.accounts.models import ApiToken, hash_token
from dogtag.audit.action_names import Action
from dogtag.audit.record import record, save_and_record, snapshot

DEVICE_NAME = "Authenticator app"
MISMATCH = "That code does not match; check the time on your phone and try again."


def _code(token: str) -> int:
    token = (token or "").strip().replace(" ", "")
    if not (token.isdigit() and len(token) == 6):
        raise ValidationError({"token": "Enter the 6-digit code your authenticator app shows."})
    return int(token)


def _audited(device):
    masked = copy.copy(device)
    masked.key = "(secret)"
    return masked


@transaction.atomic
def enrol_totp(*, acting_user, key: str, token: str) -> TOTPDevice:
    """Confirm an authenticator app set up with `key` (hex) by one code it shows, and keep it as
    the user's only TOTP device (a new enrolment replaces the old one)."""
    code = _code(token)
    try:
        totp = TOTP(bytes.fromhex(key))
    except (TypeError, ValueError):
        raise ValidationError({"token": "This setup has expired; reload the page and scan the new code."}) from None
    if not totp.verify(code, tolerance=1):
        raise ValidationError({"token": MISMATCH})
    TOTPDevice.objects.filter(user=acting_user).delete()  # account configuration, not a domain row
    device = TOTPDevice.objects.create(user=acting_user, name=DEVICE_NAME, key=key, confirmed=True, last_t=totp.t())
    record(acting_user=acting_user, action=Action.SECOND_FACTOR_ENROL, obj=_audited(device))
    return device


def verify_totp(*, acting_user, token: str) -> TOTPDevice:
    """The user's confirmed device if `token` is its current code. A wrong code is kept (the
    device's throttle, django-otp's, grows with each) before it is refused."""
    code = _code(token)
    device, verified = _check(acting_user, code)
    if device is None:
        raise ValidationError({"token": "Set up an authenticator app first."})
    if verified is None:
        raise ValidationError({"token": "Too many wrong codes; wait a minute and try again."})
    if not verified:
        raise ValidationError({"token": MISMATCH})
    return device


@transaction.atomic
def _check(user, code):
    device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=True).first()
    if device is None:
        return None, False
    if not device.verify_is_allowed()[0]:
        return device, None
    verified = device.verify_token(code)
    action = Action.SECOND_FACTOR_VERIFY if verified else Action.SECOND_FACTOR_REFUSED
    record(acting_user=user, action=action, obj=_audited(device))
    return device, verified


@transaction.atomic
def issue_api_token(*, acting_user, user, name: str) -> tuple[ApiToken, str]:
    """A new bearer token for `user` (the client's account); only its hash is stored, so the raw
    token returned here is the only copy."""
    raw = "dt_" + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name, token_hash=hash_token(raw))
    record(acting_user=acting_user, action=Action.API_TOKEN_ISSUE, obj=token)
    return token, raw


@transaction.atomic
def revoke_api_token(*, acting_user, token: ApiToken) -> ApiToken:
    """`token` stops working at once, in every process: each request asks the database whether its
    token is live (accounts/tokens.py). Revoking a revoked token changes nothing and records nothing."""
    token = ApiToken.objects.select_for_update().get(pk=token.pk)
    if token.revoked_at is None:
        before = snapshot(token)
        token.revoked_at = timezone.now()
        save_and_record(token, acting_user=acting_user, action=Action.API_TOKEN_REVOKE, before=before)
    return token


@transaction.atomic
def set_first_password(user, *, password: str):
    """An invited staff member sets their password through the emailed one-time link (the link's
    token, Django's password-reset token, stops working once the password is set)."""
    user.set_password(password)
    user.save(update_fields=["password"])
    masked = copy.copy(user)
    masked.password = "(set)"  # the audit trail never holds the password's hash
    record(acting_user=user, action=Action.STAFF_PASSWORD_SET, obj=masked)
    return user
