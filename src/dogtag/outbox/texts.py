"""Text messages, the outbox's second channel: sent only to a number whose owner consented and
has not replied STOP (checked again when each message goes out), through a backend named by
DOGTAG_TEXT_BACKEND: `twilio` (the official SDK, each municipality's own account from
DOGTAG_TWILIO_<MUNICIPALITY>_ACCOUNT_SID, _AUTH_TOKEN and _FROM) or `console` (development:
the message is written to the log). Claims, retries and dead letters are the sender's, as for email."""

import logging

import phonenumbers
from django.conf import settings
from django.core.exceptions import ValidationError

from dogtag.lib import processors
from dogtag.lib.contact_fields import REGION, check_phone

log = logging.getLogger(__name__)

# The reply keywords carriers and Twilio honour (Twilio's "Advanced Opt-Out" defaults).
STOP_WORDS = {"STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "OPTOUT", "REVOKE"}
START_WORDS = {"START", "UNSTOP", "YES", "OPTIN"}
HELP_WORDS = {"HELP", "INFO"}


class NotConsented(Exception):
    """The number has no live consent (never given, or ended by a STOP reply): never retried."""


def e164(value: str, field: str = "phone") -> str:
    """A telephone number as E.164 (+16085550142), or a ValidationError naming the field."""
    try:
        check_phone(value)
    except ValidationError as e:
        raise ValidationError({field: e.messages}) from None
    return phonenumbers.format_number(phonenumbers.parse(value, REGION), phonenumbers.PhoneNumberFormat.E164)


def keyword(body: str) -> str:
    """What a reply asks: "stop", "start", "help" or "" (anything else)."""
    word = (body or "").strip().split(maxsplit=1)[0].upper() if (body or "").strip() else ""
    if word in STOP_WORDS:
        return "stop"
    if word in START_WORDS:
        return "start"
    if word in HELP_WORDS:
        return "help"
    return ""


def twilio_client(municipality, http_client=None):
    from twilio.rest import Client

    return Client(
        processors.secret(municipality, "twilio", "ACCOUNT_SID"),
        processors.secret(municipality, "twilio", "AUTH_TOKEN"),
        http_client=http_client or HTTP_CLIENT,
    )


# The SDK's HTTP transport (None: the SDK's own); the tests answer it from recorded responses.
HTTP_CLIENT = None


def _send_twilio(message) -> str:
    from twilio.base.exceptions import TwilioRestException

    client = twilio_client(message.municipality)
    try:
        sent = client.messages.create(
            to=message.to, from_=processors.secret(message.municipality, "twilio", "FROM"), body=message.text
        )
    except TwilioRestException as e:
        if e.code in (21610,):  # "Attempt to send to unsubscribed recipient": the carrier holds a STOP
            raise NotConsented(f"Twilio {e.code}: {e.msg}") from None
        raise
    return sent.sid


def _send_console(message) -> str:
    log.info("text to %s (%s): %s", message.to, message.municipality_id, message.text)
    return "console"


BACKENDS = {"twilio": _send_twilio, "console": _send_console}


def live_consent(municipality_id: int, phone: str):
    from dogtag.outbox.models import TextConsent

    return TextConsent.objects.filter(municipality_id=municipality_id, phone=phone, stopped_at=None).first()


def send(message) -> str:
    """Send one claimed text message; raises NotConsented when its number may not be texted."""
    if live_consent(message.municipality_id, message.to) is None:
        raise NotConsented(f"{message.to} has not consented to texts, or replied STOP")
    return BACKENDS[settings.DOGTAG_TEXT_BACKEND](message)


def validator(municipality):
    from twilio.request_validator import RequestValidator

    return RequestValidator(processors.secret(municipality, "twilio", "AUTH_TOKEN"))


def consent_wording(municipality) -> str:
    """What a resident reads, and agrees to, before giving a number online (kept with the consent,
    in the language it was shown in)."""
    from django.utils.translation import gettext

    return gettext(
        "I agree to receive text messages from the %(municipality)s clerk's office about my dog licenses, "
        "such as renewal reminders, at this number. Message and data rates may apply. I can reply STOP at "
        "any time to end them, or HELP for help, and consent is not a condition of a license."
    ) % {"municipality": municipality}
