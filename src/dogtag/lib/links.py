"""Links mailed to residents. A renewal link and an unsubscribe link are signed (nothing to
store, nothing to guess); an application's link carries its own random token."""

from functools import partial

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from dogtag.lib import short_codes

RENEWAL_SALT = "dogtag.portal.renewal"
UNSUBSCRIBE_SALT = "dogtag.portal.unsubscribe"
CONFIRM_SALT = "dogtag.portal.confirm-email"
PET_SALT = "dogtag.portal.pet"


def absolute(path: str) -> str:
    return settings.DOGTAG_BASE_URL.rstrip("/") + path


def renewal_token(animal_id: int, license_year: int) -> str:
    return signing.dumps([animal_id, license_year], salt=RENEWAL_SALT, compress=True)


def _read(token: str, salt: str, convert):
    """`convert` of what the token signs, or None for a token not signed with `salt` or not of that shape."""
    try:
        return convert(signing.loads(token, salt=salt))
    except (signing.BadSignature, ValueError, TypeError):
        return None


def read_renewal_token(token: str) -> tuple[int, int] | None:
    found = _read(token, RENEWAL_SALT, lambda signed: tuple(int(n) for n in signed))
    return found if found and len(found) == 2 else None


def renewal_url(animal_id: int, license_year: int) -> str:
    return absolute(reverse("portal-renew", args=[renewal_token(animal_id, license_year)]))


unsubscribe_token = partial(signing.dumps, salt=UNSUBSCRIBE_SALT)
read_unsubscribe_token = partial(_read, salt=UNSUBSCRIBE_SALT, convert=int)
# The owner's key to their animal's page on the portal (report it lost, found again, deceased or
# moved away), given with the renewal they opened.
pet_token = partial(signing.dumps, salt=PET_SALT)
read_pet_token = partial(_read, salt=PET_SALT, convert=int)


def unsubscribe_url(person_id: int) -> str:
    return absolute(reverse("portal-unsubscribe", args=[unsubscribe_token(person_id)]))


def application_url(application) -> str:
    return absolute(reverse("portal-application", args=[application.token]))


def confirmation_code(application) -> str:
    """Signed over the application and the address it emails: only that mailbox receives it."""
    return signing.dumps([application.pk, application.email], salt=CONFIRM_SALT)


def confirms(application, code: str) -> bool:
    return _read(code, CONFIRM_SALT, list) == [application.pk, application.email]


def confirmation_url(application) -> str:
    return absolute(reverse("portal-confirm-email", args=[application.token, confirmation_code(application)]))


# A citation's forfeiture, paid online where the municipality allows it: the address printed on
# the citation is signed, so no other citation is reached by changing a number in it, and has a
# short form a person can type from paper (the citation's number and ten characters of a keyed
# hash, in Crockford's base 32: no I, L, O or U to misread, case and dashes ignored).
CITATION_SALT = "dogtag.payments.citation"
SHORT_CHECK_LENGTH = 10
citation_pay_token = partial(signing.dumps, salt=CITATION_SALT)
read_citation_pay_token = partial(_read, salt=CITATION_SALT, convert=int)


def _short_check(citation_id: int) -> str:
    digest = salted_hmac(CITATION_SALT + ".short", str(citation_id), algorithm="sha256").digest()
    number = int.from_bytes(digest[:8])
    return "".join(short_codes.ALPHABET[(number >> (5 * i)) & 31] for i in range(SHORT_CHECK_LENGTH))


def citation_short_code(citation_id: int) -> str:
    check = _short_check(citation_id)
    return f"{citation_id}-{check[:5]}-{check[5:]}"


def read_citation_short_code(code: str) -> int | None:
    """The citation a typed short code names, or None; forgiving of case, dashes, spaces and
    the letters a reader takes for digits."""
    number, _, check = code.strip().partition("-")
    number, check = short_codes.typed(number), short_codes.typed(check)
    if not number.isdigit() or len(check) != SHORT_CHECK_LENGTH:
        return None
    return int(number) if constant_time_compare(check, _short_check(int(number))) else None


def citation_pay_url(citation_id: int) -> str:
    return absolute(reverse("payments-pay-citation", args=[citation_pay_token(citation_id)]))


def citation_short_url(citation_id: int) -> str:
    return absolute(reverse("payments-pay-citation-short", args=[citation_short_code(citation_id)]))
