"""Time-based one-time passwords (django-otp's TOTP plugin): required of administrators,
available to every staff user. After the password, a user who must or who chose to use a
second factor reaches nothing but the verify (or enrol) page until the code is given."""

from django.http import JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django_otp import user_has_device

from dogtag.accounts.models import Membership, Role
from dogtag.accounts.scope import municipality_ids

# Pages an authenticated but not yet verified user may open.
OPEN_TO_UNVERIFIED = {"login", "logout", "two-factor", "two-factor-verify"}


def second_factor_required(user, *, of_request: bool = False) -> bool:
    """Administrators: Django's admin site (staff, superuser) or the administrator role anywhere.
    For the request's own user the roles are those the request reads once (scope.municipality_ids),
    so every page does not ask for them twice."""
    if user.is_superuser or user.is_staff:
        return True
    if of_request:
        return bool(municipality_ids(user, (Role.ADMINISTRATOR,)))
    return Membership.objects.filter(user=user, role=Role.ADMINISTRATOR).exists()


class SecondFactorMiddleware:
    """After OTPMiddleware (which sets request.user.is_verified)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        user = request.user
        if not user.is_authenticated or user.is_verified():
            return None
        match = request.resolver_match
        if match and match.url_name in OPEN_TO_UNVERIFIED or request.path_info.startswith("/static/"):
            return None
        has_device = user_has_device(user)
        if not has_device and not second_factor_required(user, of_request=True):
            return None
        if request.path_info.startswith("/api/"):
            detail = "Give your one-time code first." if has_device else "Set up a second factor first."
            return JsonResponse({"detail": detail}, status=403)
        target = reverse("two-factor-verify" if has_device else "two-factor")
        return redirect(f"{target}?{urlencode({'next': request.get_full_path()})}")
