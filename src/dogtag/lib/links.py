"""Links mailed to residents. A renewal link and an unsubscribe link are signed (nothing to
store, nothing to guess); an application's link carries its own random token."""

from django.conf import settings
from django.core import signing
from django.urls import reverse

RENEWAL_SALT = "dogtag.portal.renewal"
UNSUBSCRIBE_SALT = "dogtag.portal.unsubscribe"
CONFIRM_SALT = "dogtag.portal.confirm-email"
PET_SALT = "dogtag.portal.pet"


def absolute(path: str) -> str:
    return settings.DOGTAG_BASE_URL.rstrip("/") + path


def renewal_token(animal_id: int, license_year: int) -> str:
    return signing.dumps([animal_id, license_year], salt=RENEWAL_SALT, compress=True)


def read_renewal_token(token: str) -> tuple[int, int] | None:
    try:
        animal_id, year = signing.loads(token, salt=RENEWAL_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    return int(animal_id), int(year)


def renewal_url(animal_id: int, license_year: int) -> str:
    return absolute(reverse("portal-renew", args=[renewal_token(animal_id, license_year)]))


def unsubscribe_token(person_id: int) -> str:
    return signing.dumps(person_id, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> int | None:
    try:
        return int(signing.loads(token, salt=UNSUBSCRIBE_SALT))
    except (signing.BadSignature, ValueError, TypeError):
        return None


def unsubscribe_url(person_id: int) -> str:
    return absolute(reverse("portal-unsubscribe", args=[unsubscribe_token(person_id)]))


def application_url(application) -> str:
    return absolute(reverse("portal-application", args=[application.token]))


def confirmation_code(application) -> str:
    """Signed over the application and the address it emails: only that mailbox receives it."""
    return signing.dumps([application.pk, application.email], salt=CONFIRM_SALT)


def confirms(application, code: str) -> bool:
    try:
        pk, email = signing.loads(code, salt=CONFIRM_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return False
    return pk == application.pk and email == application.email


def confirmation_url(application) -> str:
    return absolute(reverse("portal-confirm-email", args=[application.token, confirmation_code(application)]))


def pet_token(animal_id: int) -> str:
    """The owner's key to their animal's page on the portal (report it lost, found again,
    deceased or moved away), given with the renewal they opened."""
    return signing.dumps(animal_id, salt=PET_SALT)


def read_pet_token(token: str) -> int | None:
    try:
        return int(signing.loads(token, salt=PET_SALT))
    except (signing.BadSignature, ValueError, TypeError):
        return None


def pet_url(animal_id: int) -> str:
    return absolute(reverse("portal-pet", args=[pet_token(animal_id)]))
