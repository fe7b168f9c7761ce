"""Text messages on the owner's page of their pet (reached by the signed link their renewal gives
them): the owner opts in at a mobile number, reading the consent's words (kept with it: "online",
when), or opts out. The actions are outbox/actions.py `consent_online` and `stop_texts_online`."""

from django.contrib import messages
from django.utils.translation import gettext as _

from dogtag.lib.dates import today
from dogtag.lib.web import run_action
from dogtag.outbox import actions, texts
from dogtag.outbox.forms import ResidentConsentForm
from dogtag.registry.models import Ownership


def owner(animal):
    """The animal's owner today (the latest ownership begun), or None."""
    found = animal.current_owners(today()).filter(role=Ownership.Role.OWNER).order_by("-started_on", "-pk").first()
    return found.person if found else None


def context(animal, form=None) -> dict:
    """The pet page's part on text messages: the owner's live number, or the form and its words."""
    person = owner(animal)
    if person is None:
        return {"texts_person": None}
    live = person.text_consents.filter(stopped_at=None).first()
    return {
        "texts_person": person,
        "texts_live": live,
        "texts_form": form or ResidentConsentForm(),
        "texts_wording": texts.consent_wording(animal.municipality),
    }


def answer(request, animal):
    """A POST of the texts part: True when done (the page redirects), else the bound form with
    its errors for the page to show again."""
    person = owner(animal)
    if person is None:
        return ResidentConsentForm()
    if request.POST.get("texts") == "stop":
        if actions.stop_texts_online(person=person):
            messages.success(request, _("We will send no more text messages."))
        return True
    form = ResidentConsentForm(request.POST)
    if form.is_valid():
        wording = texts.consent_wording(animal.municipality)
        consent = run_action(form, actions.consent_online, person=person, wording=wording)
        if consent:
            messages.success(
                request,
                _("Thank you. Renewal reminders will also come by text message to %(number)s.")
                % {"number": consent.phone},
            )
            return True
    return form
