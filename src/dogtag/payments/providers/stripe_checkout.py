"""Stripe Checkout through the official SDK, on the municipality's own account: its secret key
and webhook signing secret come from lib/processors.py, per call, never from the database."""

from contextlib import contextmanager
from datetime import UTC, date, datetime, time, timedelta

import stripe
from django.conf import settings
from django.utils import timezone

from dogtag.lib import processors
from dogtag.payments.providers import (
    Forged,
    Movement,
    Notice,
    Reading,
    Refused,
    Started,
    Unreachable,
    cents,
    describe,
    dollars,
)

SESSION_EVENTS = (
    "checkout.session.completed",
    "checkout.session.async_payment_succeeded",
    "checkout.session.async_payment_failed",
    "checkout.session.expired",
)


@contextmanager
def _answers():
    """The SDK's errors as the interface's: no answer (retry later) or a refusal (show it)."""
    try:
        yield
    except (stripe.APIConnectionError, stripe.RateLimitError) as e:
        raise Unreachable(f"Stripe did not answer: {e.user_message or e}") from e
    except stripe.APIError as e:
        raise Unreachable(f"Stripe failed: {e.user_message or e}") from e
    except stripe.StripeError as e:
        raise Refused(f"Stripe refused: {e.user_message or e}") from e


def _line(checkout, amount, name) -> dict:
    return {
        "price_data": {"currency": checkout.currency, "unit_amount": cents(amount), "product_data": {"name": name}},
        "quantity": 1,
    }


def _lines(checkout, description: str) -> list[dict]:
    """What the law charges (for a household's cart, a line for each animal), and the
    municipality's card convenience fee as a line of its own."""
    items = list(checkout.items.select_related("application__municipality", "application__animal"))
    if items:
        lines = [_line(checkout, item.amount, describe(item.application)) for item in items]
    else:
        lines = [_line(checkout, checkout.amount - checkout.convenience_fee, description)]
    if checkout.convenience_fee:
        lines.append(_line(checkout, checkout.convenience_fee, f"{checkout.municipality} card convenience fee"))
    return lines


class StripeCheckout:
    key = "stripe"
    label = "Pay now by card on Stripe's secure page"

    def __init__(self, municipality):
        self.municipality = municipality

    def _options(self) -> dict:
        options = {"api_key": processors.secret(self.municipality, "stripe", "SECRET_KEY")}
        account = processors.optional(self.municipality, "stripe", "ACCOUNT")
        if account:
            options["stripe_account"] = account  # a Connect platform acting for the municipality's account
        return options

    def start(self, checkout, *, success_url: str, cancel_url: str, description: str) -> Started:
        metadata = {"municipality": self.municipality.slug, "checkout": str(checkout.pk)}
        expires = timezone.now() + timedelta(minutes=settings.DOGTAG_CHECKOUT_MINUTES)
        with _answers():
            session = stripe.checkout.Session.create(
                mode="payment",
                line_items=_lines(checkout, description),
                customer_email=checkout.application.email if checkout.application_id else None,
                client_reference_id=str(checkout.pk),
                metadata=metadata,
                payment_intent_data={"metadata": metadata},
                success_url=success_url,
                cancel_url=cancel_url,
                expires_at=int(expires.timestamp()),
                idempotency_key=f"dogtag-checkout-{checkout.pk}",
                **self._options(),
            )
        return Started(session_id=session.id, url=session.url)

    def verify(self, body: bytes, headers) -> Notice:
        signature = headers.get("Stripe-Signature")
        if not signature:
            raise Forged("No Stripe-Signature header.")
        secret = processors.secret(self.municipality, "stripe", "WEBHOOK_SECRET")
        try:
            event = stripe.Webhook.construct_event(body, signature, secret)
        except (ValueError, stripe.SignatureVerificationError) as e:
            raise Forged(f"The signature does not verify with {self.municipality}'s webhook secret: {e}") from None
        account = processors.optional(self.municipality, "stripe", "ACCOUNT")
        if account and event.get("account") and event["account"] != account:
            raise Forged(f"The notification is for Stripe account {event['account']}, not {self.municipality}'s.")
        session_id = ""
        if event["type"] in SESSION_EVENTS:
            session = event["data"]["object"]
            named = (session.get("metadata") or {}).get("municipality")
            if named and named != self.municipality.slug:
                raise Forged(f"The notification is for {named}'s checkout, not {self.municipality}'s.")
            session_id = session["id"]
        occurred = datetime.fromtimestamp(int(event["created"]), tz=UTC)
        return Notice(event_id=event["id"], kind=event["type"], session_id=session_id, occurred_at=occurred)

    def reread(self, checkout) -> Reading:
        with _answers():
            session = stripe.checkout.Session.retrieve(checkout.session_id, **self._options())
        if session.status == "complete" and session.payment_status == "paid":
            status = "paid"
        elif session.status == "expired":
            status = "expired"
        else:
            status = "open"
        intent = session.payment_intent
        return Reading(
            status=status,
            amount=dollars(session.amount_total or 0),
            currency=session.currency or "",
            reference=(intent if isinstance(intent, str) else getattr(intent, "id", "")) or "",
            municipality_slug=(session.metadata or {}).get("municipality", ""),
        )

    def refund(self, checkout, amount, idempotency_key: str) -> str:
        with _answers():
            refund = stripe.Refund.create(
                payment_intent=checkout.reference,
                amount=cents(amount),
                idempotency_key=idempotency_key,
                **self._options(),
            )
        if refund.status in ("failed", "canceled"):
            raise Refused(f"Stripe refused the refund: {refund.get('failure_reason') or refund.status}")
        return refund.id

    def activity(self, day: date) -> list[Movement]:
        zone = timezone.get_default_timezone()
        start = datetime.combine(day, time(), zone)
        created = {"gte": int(start.timestamp()), "lt": int((start + timedelta(days=1)).timestamp())}
        moved = []
        with _answers():
            for charge in stripe.Charge.list(created=created, limit=100, **self._options()).auto_paging_iter():
                if charge.status == "succeeded":
                    moved.append(self._movement("charge", charge))
            for refund in stripe.Refund.list(created=created, limit=100, **self._options()).auto_paging_iter():
                if refund.status in ("succeeded", "pending"):
                    moved.append(self._movement("refund", refund))
        return moved

    @staticmethod
    def _movement(kind, obj) -> Movement:
        return Movement(
            kind=kind,
            id=obj.id,
            reference=obj.payment_intent or "",
            amount=dollars(obj.amount),
            at=datetime.fromtimestamp(obj.created, tz=UTC),
        )
