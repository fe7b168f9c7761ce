"""A staff user's second factor: enrol an authenticator app, and give its code after the password.
Thin: parse, call an action, render."""

from base64 import b32encode

import segno
from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django_otp import login as otp_login
from django_otp import user_has_device
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp.util import random_hex

from dogtag.accounts import actions
from dogtag.accounts.second_factor import second_factor_required

SETUP_KEY = "dogtag_totp_setup_key"


class CodeForm(forms.Form):
    token = forms.CharField(
        label="6-digit code", max_length=8, widget=forms.TextInput(attrs={"autocomplete": "one-time-code"})
    )


def _next(request):
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return "home"


def _submit(request, form, action, **kwargs):
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        return action(acting_user=request.user, token=form.cleaned_data["token"], **kwargs)
    except ValidationError as e:
        for message in e.message_dict.get("token", e.messages):
            form.add_error("token", message)
        return None


@login_required
def enrol(request):
    """The secret lives in the session until a code from the app confirms it (a GET writes nothing)."""
    key = request.session.get(SETUP_KEY)
    if not key:
        key = request.session[SETUP_KEY] = random_hex(20)
    form = CodeForm(request.POST or None)
    device = _submit(request, form, actions.enrol_totp, key=key)
    if device:
        del request.session[SETUP_KEY]
        otp_login(request, device)
        return redirect(_next(request))
    uri = TOTPDevice(user=request.user, key=key).config_url
    context = {
        "form": form,
        "uri": uri,
        "secret": b32encode(bytes.fromhex(key)).decode(),
        "qr": mark_safe(segno.make(uri).svg_inline(scale=4, title="QR code for your authenticator app")),
        "enrolled": user_has_device(request.user),
        "required": second_factor_required(request.user),
        "next": request.GET.get("next", ""),
    }
    return render(request, "accounts/two_factor_enrol.html", context)


@login_required
def verify(request):
    if not user_has_device(request.user):
        return redirect("two-factor" if second_factor_required(request.user) else "home")
    form = CodeForm(request.POST or None)
    device = _submit(request, form, actions.verify_totp)
    if device:
        otp_login(request, device)
        return redirect(_next(request))
    return render(request, "accounts/two_factor_verify.html", {"form": form, "next": request.GET.get("next", "")})


def welcome(request, uidb64, token):
    """The invitation's one-time link: set a password, then enrol the second factor."""
    from django.contrib.auth import login
    from django.contrib.auth.forms import SetPasswordForm

    from dogtag.accounts.welcome import user_of

    user = user_of(uidb64, token)
    if user is None:
        text = "This link has been used or has expired. Ask your municipality's administrator for a new invitation."
        return render(request, "accounts/welcome.html", {"text": text}, status=404)
    form = SetPasswordForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        actions.set_first_password(user, password=form.cleaned_data["new_password1"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("two-factor")
    return render(request, "accounts/welcome.html", {"form": form, "invited": user})
