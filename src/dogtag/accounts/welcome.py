"""The one-time link an invited staff member follows to set a password:
Django's password-reset token, which stops working once the password is set."""

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode


def welcome_path(user) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("staff-welcome", args=[uid, default_token_generator.make_token(user)])


def user_of(uidb64: str, token: str):
    """The invited user, or None when the link is wrong, used or expired."""
    try:
        pk = int(force_str(urlsafe_base64_decode(uidb64)))
    except (TypeError, ValueError, OverflowError):
        return None
    user = get_user_model().objects.filter(pk=pk, is_active=True).first()
    return user if user is not None and default_token_generator.check_token(user, token) else None
