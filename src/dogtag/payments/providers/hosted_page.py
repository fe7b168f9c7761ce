"""A generic hosted payment page, of the kind government processors offer: the resident is
redirected with a request signed by HMAC-SHA256 with the municipality's shared secret; the
processor posts back a notification signed the same way; the order is re-read from the
processor's API with a signed request. The same three steps as Stripe, behind the same interface.

Settings (lib/processors.py): DOGTAG_HOSTED_<MUNICIPALITY>_URL (the processor's base address),
_MERCHANT (the municipality's merchant id) and _SECRET (or _SECRET_FILE)."""

import hashlib
import hmac
import time
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from urllib.parse import urlencode

import requests
from django.conf import settings

from dogtag.lib import processors
from dogtag.payments.providers import Forged, Movement, Notice, Reading, Refused, Started, Unreachable, cents, dollars

NOTICE_FIELDS = ("event_id", "order", "status", "amount", "currency", "transaction", "timestamp")
TOLERANCE_SECONDS = 300


def sign(secret: str, fields: dict) -> str:
    """HMAC-SHA256 over the fields as `key=value` lines in key order."""
    canonical = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    return hmac.new(secret.encode(), canonical.encode(), hashlib.sha256).hexdigest()


class HostedPage:
    key = "hosted"
    label = "Pay now by card on the processor's secure page"
    http = requests.Session()  # replaced in the tests by one answering from recorded responses

    def __init__(self, municipality):
        self.municipality = municipality

    def _setting(self, name):
        return processors.secret(self.municipality, "hosted", name)

    def _order(self, checkout) -> str:
        return checkout.session_id or f"dogtag-{self.municipality.slug}-{checkout.pk}"

    def start(self, checkout, *, success_url: str, cancel_url: str, description: str) -> Started:
        order = self._order(checkout)
        fields = {
            "merchant": self._setting("MERCHANT"),
            "order": order,
            "amount": str(cents(checkout.amount)),
            "currency": checkout.currency,
            "description": description,
            "return_url": success_url,
            "cancel_url": cancel_url,
            "timestamp": str(int(time.time())),
        }
        fields["signature"] = sign(self._setting("SECRET"), fields)
        return Started(session_id=order, url=f"{self._setting('URL').rstrip('/')}/pay?{urlencode(fields)}")

    def verify(self, body: bytes, headers) -> Notice:
        from urllib.parse import parse_qs

        posted = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace")).items()}
        missing = [f for f in (*NOTICE_FIELDS, "signature") if f not in posted]
        if missing:
            raise Forged(f"The notification lacks {', '.join(missing)}.")
        expected = sign(self._setting("SECRET"), {k: posted[k] for k in NOTICE_FIELDS})
        if not hmac.compare_digest(expected, posted["signature"]):
            raise Forged(f"The signature does not verify with {self.municipality}'s shared secret.")
        try:
            stamped = int(posted["timestamp"])
        except ValueError:
            raise Forged("The notification's timestamp is not a number.") from None
        if abs(time.time() - stamped) > TOLERANCE_SECONDS:
            raise Forged("The notification's timestamp is outside the tolerance.")
        if not posted["order"].startswith(f"dogtag-{self.municipality.slug}-"):
            raise Forged(f"The notification is for another municipality's order, not {self.municipality}'s.")
        return Notice(
            event_id=posted["event_id"],
            kind=f"order.{posted['status']}",
            session_id=posted["order"],
            occurred_at=datetime.fromtimestamp(stamped, tz=UTC),
        )

    def _call(self, method: str, path: str, data: dict | None = None) -> dict:
        stamp = str(int(time.time()))
        headers = {
            "X-Merchant": self._setting("MERCHANT"),
            "X-Timestamp": stamp,
            "X-Signature": sign(self._setting("SECRET"), {"method": method, "path": path, "timestamp": stamp,
                                                           **(data or {})}),
        }  # fmt: skip
        url = f"{self._setting('URL').rstrip('/')}{path}"
        try:
            response = self.http.request(
                method, url, headers=headers, data=data, timeout=settings.DOGTAG_PROCESSOR_TIMEOUT_SECONDS
            )
        except requests.RequestException as e:
            raise Unreachable(f"The processor did not answer: {type(e).__name__}") from e
        if response.status_code >= 500:
            raise Unreachable(f"The processor failed ({response.status_code}).")
        if response.status_code >= 400:
            raise Refused(f"The processor refused ({response.status_code}): {response.text[:200]}")
        return response.json()

    def reread(self, checkout) -> Reading:
        order = self._call("GET", f"/orders/{checkout.session_id}")
        status = {"paid": "paid", "expired": "expired", "failed": "expired"}.get(order.get("status"), "open")
        return Reading(
            status=status,
            amount=_dollars(order.get("amount")),
            currency=order.get("currency", ""),
            reference=order.get("transaction", ""),
            municipality_slug=self.municipality.slug if order.get("order") == checkout.session_id else "",
        )

    def refund(self, checkout, amount: Decimal, idempotency_key: str) -> str:
        answer = self._call(
            "POST", f"/orders/{checkout.session_id}/refunds", {"amount": str(cents(amount)), "key": idempotency_key}
        )
        if answer.get("status") != "succeeded":
            raise Refused(f"The processor refused the refund: {answer.get('reason') or answer.get('status')}")
        return answer["id"]

    def activity(self, day: date) -> list[Movement]:
        answer = self._call("GET", f"/activity/{day.isoformat()}")
        return [
            Movement(
                kind=m["kind"],
                id=m["id"],
                reference=m["transaction"],
                amount=_dollars(m["amount"]),
                at=datetime.fromtimestamp(int(m["at"]), tz=UTC),
            )
            for m in answer.get("movements", [])
        ]


def _dollars(value) -> Decimal:
    try:
        return dollars(int(value))
    except (TypeError, ValueError, InvalidOperation):
        return Decimal("-1")
