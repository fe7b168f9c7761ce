"""The processors' side, here where no processor can be reached: the real `stripe` SDK (and the
hosted-page adapter's `requests`) with their HTTP transport answered from recorded responses,
and notifications signed the way each processor signs them.

`Recorded` stands in for a `requests.Session` under the SDK's own `stripe.RequestsClient`, so the
SDK builds each request, sends it through its client and parses the answer for real."""

import copy
import hashlib
import hmac
import json
import os
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import requests
import stripe
from requests.structures import CaseInsensitiveDict

RECORDED = Path(__file__).resolve().parent / "recorded"

BENTON_STRIPE = {
    "DOGTAG_PROCESSOR_BENTON": "stripe",
    "DOGTAG_STRIPE_BENTON_SECRET_KEY": "sk_test_benton",
    "DOGTAG_STRIPE_BENTON_WEBHOOK_SECRET": "whsec_benton_test",
}
WEBSTER_STRIPE = {
    "DOGTAG_PROCESSOR_WEBSTER": "stripe",
    "DOGTAG_STRIPE_WEBSTER_SECRET_KEY": "sk_test_webster",
    "DOGTAG_STRIPE_WEBSTER_WEBHOOK_SECRET": "whsec_webster_test",
}


def recorded(name: str, **fields) -> dict:
    body = copy.deepcopy(json.loads((RECORDED / f"{name}.json").read_text()))
    body.update(fields)
    return body


class Sent:
    def __init__(self, method, url, headers, data):
        parts = urlsplit(url)
        self.method, self.url, self.path, self.headers = method, url, parts.path, CaseInsensitiveDict(headers or {})
        raw = data if isinstance(data, str) else (data.decode() if isinstance(data, bytes) else "")
        if isinstance(data, dict):
            self.data = {k: str(v) for k, v in data.items()}
        else:
            self.data = {k: v[0] for k, v in parse_qs(raw or parts.query).items()}

    def __repr__(self):
        return f"{self.method} {self.path} {self.data}"


class Recorded:
    """A `requests.Session` that answers from recorded responses, the latest matching route
    first. A route answers (status, body) or raises (a timeout); `times` limits how often."""

    def __init__(self):
        self.routes = []
        self.sent = []

    def answer(self, method, path, body=None, status=200, *, raises=None, times=None, key=None):
        """`key`: answer only requests made with that account's secret key."""
        self.routes.insert(0, {"method": method, "path": path, "body": body, "status": status, "raises": raises,
                               "times": times, "key": key})  # fmt: skip
        return self

    def request(self, method, url, headers=None, data=None, timeout=None, **kwargs):
        assert timeout, "every call to a processor has a timeout"
        sent = Sent(method.upper(), url, headers, data)
        self.sent.append(sent)
        for route in self.routes:
            if route["key"] and sent.headers.get("Authorization") != f"Bearer {route['key']}":
                continue
            if route["method"] == sent.method and sent.path.startswith(route["path"]) and route["times"] != 0:
                if route["times"]:
                    route["times"] -= 1
                if route["raises"]:
                    raise route["raises"]
                response = requests.Response()
                response.status_code = route["status"]
                body = route["body"]() if callable(route["body"]) else route["body"]
                response._content = json.dumps(body).encode()
                response.headers = CaseInsensitiveDict({"Content-Type": "application/json", "Request-Id": "req_test"})
                response.url = url
                return response
        raise AssertionError(f"No recorded response for {sent}")

    def to(self, method, path):
        return [s for s in self.sent if s.method == method and s.path.startswith(path)]


def install_stripe() -> Recorded:
    """Point the SDK's HTTP client at a new `Recorded`; returns it."""
    session = Recorded()
    stripe.default_http_client = stripe.RequestsClient(session=session, timeout=5)
    stripe.max_network_retries = 0
    return session


def stripe_signature(payload: str, secret: str, at: int | None = None) -> str:
    """The Stripe-Signature header as Stripe builds it: t=<unix time>,v1=HMAC-SHA256(secret, "t.payload")."""
    at = int(time.time()) if at is None else at
    digest = hmac.new(secret.encode(), f"{at}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={at},v1={digest}"


def stripe_event(kind: str, session: dict, event_id: str = "evt_test_1", account: str | None = None) -> str:
    event = {
        "id": event_id,
        "object": "event",
        "api_version": "2025-09-30.clover",
        "created": int(time.time()),
        "data": {"object": session},
        "livemode": False,
        "pending_webhooks": 1,
        "request": {"id": None, "idempotency_key": None},
        "type": kind,
    }
    if account:
        event["account"] = account
    return json.dumps(event)


def paid_session(checkout, amount_cents=None, intent="pi_test_1", **fields) -> dict:
    return recorded(
        "checkout_session",
        id=checkout.session_id,
        amount_total=amount_cents if amount_cents is not None else int(checkout.amount * 100),
        client_reference_id=str(checkout.pk),
        metadata={"municipality": checkout.municipality.slug, "checkout": str(checkout.pk)},
        payment_intent=intent,
        payment_status="paid",
        status="complete",
        **fields,
    )


def environ(*parts) -> dict:
    merged = {}
    for part in parts:
        merged.update(part)
    return merged


def patch_env(*parts):
    from unittest import mock

    return mock.patch.dict(os.environ, environ(*parts))
