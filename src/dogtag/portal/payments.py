"""How a resident may pay: at the counter (or by mailed check), always; or by card on the card
processor's own hosted page, where the municipality has connected an account
(lib/processors.py). No form in Dogtag takes a card number: the payments app starts the
checkout and the processor's signed notification, re-read from the processor, records the payment."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from dogtag.lib import processors


@dataclass(frozen=True)
class Choice:
    key: str
    label: str  # lazily translated: the resident's language when shown
    status: str  # the application's payment status once sent


COUNTER = Choice("counter", _("Pay at the clerk's counter or by mailed check"), "awaiting")
CARD = Choice("card", _("Pay now by card (on the card processor's secure page)"), "online")


def offered(municipality) -> list[Choice]:
    return [COUNTER, CARD] if processors.processor_of(municipality) else [COUNTER]


def get(key: str, municipality) -> Choice | None:
    return next((c for c in offered(municipality) if c.key == key), None)
