"""The payment provider interface: three steps, and nothing else a checkout needs.

1. `start`: open a payment on the processor's own hosted page and return its address (the
   resident's card goes to the processor, never to Dogtag: PCI DSS SAQ A).
2. `verify`: check a notification's signature with the municipality's secret and read it.
3. `reread`: ask the processor what became of the payment, so a notification is only a cue.

`refund` and `activity` (the day's charges and refunds, for the reconciliation) are what the
clerk's side needs from the same account."""

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Protocol

from dogtag.lib import processors


class Unreachable(Exception):
    """The processor did not answer (a timeout, a connection refused, a 5xx)."""


class Forged(Exception):
    """A notification whose signature does not verify, or that names another account."""


class Refused(Exception):
    """The processor answered with a refusal (a declined refund, an unknown payment)."""


@dataclass(frozen=True)
class Started:
    session_id: str
    url: str


@dataclass(frozen=True)
class Notice:
    event_id: str
    kind: str
    session_id: str
    occurred_at: datetime


@dataclass(frozen=True)
class Reading:
    status: str  # "paid", "open" or "expired"
    amount: Decimal
    currency: str
    reference: str  # the processor's id of the money itself (Stripe's payment intent)
    municipality_slug: str = ""


@dataclass(frozen=True)
class Movement:
    kind: str  # "charge" or "refund"
    id: str
    reference: str  # the payment it belongs to
    amount: Decimal
    at: datetime
    details: dict = field(default_factory=dict)


class Provider(Protocol):
    key: str
    label: str

    def start(self, checkout, *, success_url: str, cancel_url: str, description: str) -> Started: ...

    def verify(self, body: bytes, headers) -> Notice: ...

    def reread(self, checkout) -> Reading: ...

    def refund(self, checkout, amount: Decimal, idempotency_key: str) -> str: ...

    def activity(self, day: date) -> list[Movement]: ...


def for_municipality(municipality, processor: str | None = None) -> Provider | None:
    """The municipality's connected provider (or None); with `processor`, only that one."""
    connected = processors.processor_of(municipality)
    if connected is None or (processor is not None and processor != connected):
        return None
    if connected == "stripe":
        from dogtag.payments.providers.stripe_checkout import StripeCheckout

        return StripeCheckout(municipality)
    from dogtag.payments.providers.hosted_page import HostedPage

    return HostedPage(municipality)


def describe(application) -> str:
    """A line on the processor's page and statement: the municipality, year, species and name."""
    species = application.data.get("species") or (application.animal.species if application.animal_id else "dog")
    name = application.data.get("animal_name") or f"a {species}"
    return f"{application.municipality} {application.license_year} {species} license — {name}"


def cents(amount: Decimal) -> int:
    return int((amount * 100).to_integral_value())


def dollars(cents_: int) -> Decimal:
    return (Decimal(cents_) / 100).quantize(Decimal("0.01"))
