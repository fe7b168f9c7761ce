"""The clerk's page of a person's consent to text messages: record one (the number, how the person
consented), see every consent with when, how, by whom and when it stopped, and end one."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect, render

from dogtag.accounts.scope import get_for_user
from dogtag.lib.web import posted, run_action
from dogtag.outbox import actions, forms
from dogtag.outbox.models import TextConsent
from dogtag.registry.models import Person


@login_required
def person_texts(request, pk):
    person = get_for_user(request.user, Person.objects, pk, actions.MANAGERS)
    form = forms.ClerkConsentForm(posted(request), initial={"phone": person.phone})
    if request.method == "POST" and form.is_valid():
        if run_action(form, actions.record_text_consent, acting_user=request.user, person=person):
            return redirect("person-texts", pk=person.pk)
    consents = TextConsent.objects.filter(person=person).select_related("recorded_by", "stopped_by")
    context = {"person": person, "form": form, "consents": consents, "refused": None}
    return render(request, "outbox/person_texts.html", context, status=400 if form.errors else 200)


@login_required
def stop_consent(request, pk):
    consent = get_for_user(request.user, TextConsent.objects.select_related("person"), pk, actions.MANAGERS)
    if request.method != "POST":  # after the scope check: another municipality's consent is not revealed
        return HttpResponseNotAllowed(["POST"])
    try:
        actions.stop_texts(acting_user=request.user, consent=consent)
    except ValidationError as e:
        person = consent.person
        consents = TextConsent.objects.filter(person=person).select_related("recorded_by", "stopped_by")
        context = {"person": person, "form": forms.ClerkConsentForm(), "consents": consents, "refused": e.messages}
        return render(request, "outbox/person_texts.html", context, status=400)
    return redirect("person-texts", pk=consent.person_id)
