"""A real SMTP server on loopback for the portal's email tests, and a complete application."""

import email
import io
import socket
import tempfile
from contextlib import contextmanager
from email import policy

from aiosmtpd.controller import Controller
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings


def _pdf() -> bytes:
    from pypdf import PdfWriter

    out = io.BytesIO()
    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    writer.write(out)
    return out.getvalue()


def _image(kind) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(out, kind)
    return out.getvalue()


PDF, PNG, JPEG = _pdf(), _image("PNG"), _image("JPEG")  # real files: uploads are checked by content
MEDIA = override_settings(MEDIA_ROOT=tempfile.mkdtemp(prefix="dogtag-portal-media-"))


class Inbox:
    """An aiosmtpd handler that keeps what arrives, or refuses every recipient."""

    def __init__(self, refuse=False):
        self.refuse = refuse
        self.messages = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse:
            return "550 5.1.1 Mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 Message accepted for delivery"

    def to(self, address):
        return [m for m in self.messages if m["To"] == address]

    @staticmethod
    def text(message):
        return message.get_body(preferencelist=("plain",)).get_content()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def smtp_server(refuse=False):
    """Django's SMTP backend pointed at a server this test starts on 127.0.0.1."""
    inbox = Inbox(refuse)
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with override_settings(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=port,
            EMAIL_USE_TLS=False,
            EMAIL_HOST_USER="",
            EMAIL_HOST_PASSWORD="",
        ):
            yield inbox
    finally:
        controller.stop()


FULL = {
    "name": "Dana Doe",
    "street": "5 Oak St",
    "city": "Benton",
    "postal_code": "53803",
    "phone": "608-555-0199",
    "animal_name": "Maple",
    "breed": "Labrador",
    "color": "yellow",
    "sex": "female",
    "birth_date": "2024-01-15",
    "acquired_on": "2024-04-01",
    "certificate_serial": "R-2001",
    "vaccinated_on": "2025-06-10",
    "expires_on": "2028-06-10",
    "vaccine_type": "killed virus, 3-year",
    "vaccine_serial": "LOT-9",
    "rabies_tag_number": "RT-901",
    "veterinarian_name": "Dr. Vet",
    "veterinarian_address": "1 Clinic Rd, Benton WI",
    "veterinarian_phone": "608-555-0100",
}


def upload(name="certificate.pdf", content=PDF):
    return SimpleUploadedFile(name, content)


def confirm_address(client, application):
    """Follow the confirmation link of the application's first email, as the resident does."""
    import re
    from urllib.parse import urlsplit

    from dogtag.outbox.models import Message

    text = Message.objects.filter(kind="application-started", to=application.email).latest("pk").text
    link = re.search(r"https?://\S+/confirm/\S+/", text).group(0)
    response = client.get(urlsplit(link).path)
    assert response.status_code == 302, response.status_code
    return response
