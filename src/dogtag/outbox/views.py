"""The text provider's webhook: a reply to a municipality's number. Only a request signed with that
municipality's Twilio auth token (the SDK's RequestValidator) is read; STOP, START/UNSTOP and HELP
are answered (outbox/actions.py `answer_text_reply`), anything else changes nothing."""

from django.http import Http404, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from dogtag.lib.env import ImproperlyConfiguredEnv
from dogtag.lib.links import absolute
from dogtag.outbox import actions, texts
from dogtag.registry.models import Municipality


def _twiml(reply: str = "") -> HttpResponse:
    from twilio.twiml.messaging_response import MessagingResponse

    response = MessagingResponse()
    if reply:
        response.message(reply)
    return HttpResponse(str(response), content_type="application/xml")


def help_text(municipality) -> str:
    contact = getattr(municipality, "contact", None) if hasattr(municipality, "contact") else None
    phone = f" Questions: call the clerk at {contact.clerk_phone}." if contact and contact.clerk_phone else ""
    return f"{municipality}: dog license notices.{phone} Reply STOP to end these texts."


@csrf_exempt
@require_POST
def inbound(request, slug):
    municipality = get_object_or_404(Municipality, slug=slug)
    try:
        validator = texts.validator(municipality)
    except ImproperlyConfiguredEnv:
        raise Http404("This municipality takes no text messages.") from None
    signature = request.headers.get("X-Twilio-Signature", "")
    if not validator.validate(absolute(request.get_full_path()), request.POST.dict(), signature):
        return HttpResponseForbidden("The request's signature does not match.")
    phone = request.POST.get("From", "").strip()
    if not phone:
        return _twiml()
    word = actions.answer_text_reply(municipality=municipality, phone=phone, body=request.POST.get("Body", ""))
    return _twiml(help_text(municipality) if word == "help" else "")
