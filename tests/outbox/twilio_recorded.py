"""The text provider's side, here where Twilio cannot be reached: the SDK's own HTTP transport
(`TwilioHttpClient`) over a `requests.Session` whose adapter answers from recorded responses, so
the SDK builds each request, sends it and parses the answer for real."""

import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import requests
from requests.adapters import BaseAdapter
from twilio.http.http_client import TwilioHttpClient

RECORDED = Path(__file__).resolve().parent / "recorded"

BENTON_TWILIO = {
    "DOGTAG_TWILIO_BENTON_ACCOUNT_SID": "ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "DOGTAG_TWILIO_BENTON_AUTH_TOKEN": "benton-auth-token",
    "DOGTAG_TWILIO_BENTON_FROM": "+16085550199",
}


def recorded(name: str) -> dict:
    return json.loads((RECORDED / f"{name}.json").read_text())


class RecordedAdapter(BaseAdapter):
    """Answers each request with the next recorded (status, body) queued for its method and path."""

    def __init__(self):
        super().__init__()
        self.answers = []
        self.sent = []

    def answer(self, method: str, path_end: str, name: str, status: int):
        self.answers.append((method, path_end, recorded(name), status))

    def send(self, request, **kwargs):
        assert kwargs.get("timeout"), "every call to the provider has a timeout"
        path = urlsplit(request.url).path
        self.sent.append({"method": request.method, "path": path, "data": parse_qs(request.body or ""),
                          "authorization": request.headers.get("Authorization", "")})  # fmt: skip
        for i, (method, path_end, body, status) in enumerate(self.answers):
            if method == request.method and path.endswith(path_end):
                del self.answers[i]
                response = requests.Response()
                response.status_code, response._content = status, json.dumps(body).encode()
                response.headers["Content-Type"] = "application/json"
                response.url, response.request = request.url, request
                return response
        raise AssertionError(f"No recorded response for {request.method} {path}")

    def close(self):
        pass


def recorded_transport() -> tuple[TwilioHttpClient, RecordedAdapter]:
    adapter = RecordedAdapter()
    client = TwilioHttpClient(pool_connections=True, timeout=5)
    client.session.mount("https://", adapter)
    return client, adapter
