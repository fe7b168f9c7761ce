"""A real SMTP server on the loopback interface (aiosmtpd), for the outbox's tests.

It records each message it accepts. `delay` holds the reply to DATA that long (a slow server);
`refuse` answers every DATA with a refusal. A message is recorded only once the server sends
its 250 reply: if the client dies while waiting, aiosmtpd cancels the handler and nothing is
recorded, as a real server would not deliver a transaction the client never completed."""

import asyncio
import socket
import threading
import time
from contextlib import contextmanager
from email import message_from_bytes

from aiosmtpd.controller import Controller

HOLD_SECONDS = 120  # the longest the server holds a sender waiting for the others


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Recorder:
    def __init__(self, delay: float = 0.0, refuse: str | None = None, wait_for_sessions: int = 1):
        self.delay, self.refuse, self.wait_for_sessions = delay, refuse, wait_for_sessions
        self.received = []  # (Message-ID, subject, to)
        self.sessions = set()
        self.data_started = 0  # DATA commands begun, answered or not
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.sessions.add(id(session))
            self.data_started += 1
        if self.refuse:
            return self.refuse
        # Hold every sender until this many have a message in flight: the senders are concurrent.
        # Bounded generously: on a loaded machine a second process takes a while to start.
        deadline = time.monotonic() + HOLD_SECONDS
        while len(self.sessions) < self.wait_for_sessions and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if self.delay:
            await asyncio.sleep(self.delay)
        email = message_from_bytes(envelope.content)
        with self.lock:
            self.received.append((email["Message-ID"], email["Subject"], tuple(envelope.rcpt_tos)))
        return "250 Message accepted for delivery"

    def message_ids(self) -> list[str]:
        with self.lock:
            return [r[0] for r in self.received]

    def sessions_seen(self) -> int:
        with self.lock:
            return len(self.sessions)


@contextmanager
def smtp_server(**options):
    recorder = Recorder(**options)
    controller = Controller(recorder, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield recorder, controller.port
    finally:
        controller.stop()


def email_settings(port: int) -> dict:
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": port,
        "EMAIL_TIMEOUT": 10,
        "EMAIL_USE_TLS": False,
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
    }
