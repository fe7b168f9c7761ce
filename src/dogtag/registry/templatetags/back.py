"""Where a form's Cancel goes: the page the user came from, carried in
the form as `back`, so Cancel after a refused submit still leaves the form rather than returning
to it (the browser's referrer is then the form itself)."""

from urllib.parse import urlsplit

from django import template
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

register = template.Library()


@register.simple_tag(takes_context=True)
def back_url(context) -> str:
    request = context["request"]
    came_from = request.POST.get("back") if request.method == "POST" else request.META.get("HTTP_REFERER")
    if (
        came_from
        and url_has_allowed_host_and_scheme(came_from, allowed_hosts={request.get_host()})
        and urlsplit(came_from).path != request.path
    ):
        return came_from
    return reverse("home")
