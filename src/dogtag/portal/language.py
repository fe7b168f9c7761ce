"""The resident's language on the public portal: the one chosen with the portal's switcher
(Django's set_language keeps it in a cookie), else the first the browser asks for that Dogtag
offers, else English. Staff pages stay English whatever the browser asks. The emails and documents
sent later speak the language kept on the application and the person (`language` fields), not the
request's."""

from django.conf import settings
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header

from dogtag.lib.catalogues import complete_languages

# The pages a resident sees, by URL name: everything else is a staff page.
RESIDENT_PAGES = {
    "home",  # the front door, for a visitor who is not logged in
    "portal-home",
    "portal-application",
    "portal-review",
    "portal-confirm-email",
    "portal-renewal-code",
    "portal-renew",
    "portal-found",
    "portal-pet",
    "portal-unsubscribe",
    "portal-language",
    "accessibility",
    "payments-pay",
    "payments-pay-household",
    "payments-pay-citation",
    "payments-pay-citation-short",
}
# Public pages staff read too: a resident's when nobody is logged in, else English like every staff page.
PUBLIC_PAGES = {"home", "ordinance-index", "ordinance"}


def offered() -> tuple[str, ...]:
    return complete_languages()


def is_resident_page(request) -> bool:
    try:
        name = resolve(request.path_info).url_name
    except Resolver404:
        return True  # a page not found answers in the resident's language
    if name in PUBLIC_PAGES:
        return not request.user.is_authenticated
    return name in RESIDENT_PAGES


def resident_language(request) -> str:
    languages = offered()
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen in languages:
        return chosen
    for code, _ in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        code = code.lower()
        for candidate in (code, code.split("-")[0]):
            if candidate in languages:
                return candidate
    return settings.LANGUAGE_CODE


class PortalLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        resident = is_resident_page(request)
        language = resident_language(request) if resident else settings.LANGUAGE_CODE
        request.LANGUAGE_CODE = language
        # Only for this request: the thread (a test's, a server's) goes back to the language it had.
        with translation.override(language):
            response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        if resident:
            patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return response


def for_person(request, person) -> str:
    """The language of a page a link opens that identifies the person (a renewal, their pet's page):
    the one chosen on this device, else the one kept on the person (when offered), else the
    request's. A renewal link opened on a new phone speaks the owner's language, not the phone's."""
    if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) in offered():
        return request.LANGUAGE_CODE
    kept = getattr(person, "language", None)
    return kept if kept in offered() else request.LANGUAGE_CODE


def keep(request, response, language: str):
    """The person's language kept on this device as the switcher keeps a choice (Django's
    set_language cookie), so the pages the link leads to speak it too."""
    if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) not in offered():
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    response.headers["Content-Language"] = language
    return response
