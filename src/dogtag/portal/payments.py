"""How a resident pays. A provider takes the application and the amount and says whether it is
paid; the clerk's approval then records the payment through the licensing action.

- `counter`: pay at the counter or by mailed check. Nothing is charged online; the application
  waits for the clerk, who records the cash or check when approving (the default).
- `test-card`: stands in for a card processor so the whole online flow runs in tests and
  demos. Card 4242 4242 4242 4242 is approved, any other number is declined. Enabled only when
  DOGTAG_PAYMENT_PROVIDERS names it.
"""

import secrets
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings


@dataclass
class Result:
    paid: bool
    reference: str = ""
    error: str = ""  # why it failed, for the field `error_field`
    error_field: str = ""


class CounterProvider:
    key = "counter"
    label = "Pay at the clerk's counter or by mailed check"
    fields: tuple[str, ...] = ()

    def charge(self, application, amount: Decimal, details: dict) -> Result:
        return Result(paid=False)


class TestCardProvider:
    key = "test-card"
    label = "Pay now by card (test processor)"
    fields = ("card_number",)
    APPROVED = "4242424242424242"

    def charge(self, application, amount: Decimal, details: dict) -> Result:
        number = "".join(ch for ch in details.get("card_number", "") if ch.isdigit())
        if not number:
            return Result(False, error="Enter the card number.", error_field="card_number")
        if number != self.APPROVED:
            return Result(
                False, error="The card was declined. Try another card or pay at the counter.", error_field="card_number"
            )
        return Result(True, reference=f"test_{secrets.token_hex(8)}")


PROVIDERS = {p.key: p for p in (CounterProvider(), TestCardProvider())}


def enabled():
    return [PROVIDERS[key] for key in settings.DOGTAG_PAYMENT_PROVIDERS if key in PROVIDERS]


def get(key: str):
    return next((p for p in enabled() if p.key == key), None)
