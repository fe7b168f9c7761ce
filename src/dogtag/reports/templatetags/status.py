"""Status at a glance for the registry's pages, which sit below licensing and enforcement and so
cannot ask them: the animal's flags (declared, quarantined, impounded, license, rabies) and the
person's animals, licenses, cases and citations."""

from datetime import timedelta

from django import template

from dogtag.enforcement.models import Case, Citation, Declaration, Impoundment, QuarantineOrder
from dogtag.lib.dates import today
from dogtag.licensing.models import License, RenewalReminder
from dogtag.outbox.models import TextConsent

register = template.Library()
RABIES_WARNING_DAYS = 60  # how far ahead the page warns; a display choice, not a legal figure


@register.inclusion_tag("reports/_animal_flags.html")
def animal_flags(animal):
    on = today()
    flags = []
    for d in Declaration.objects.filter(animal=animal, case__closed_on=None).exclude(
        status=Declaration.Status.REVERSED
    ):
        due = d.requirements.filter(proof_on=None, stayed=False, deadline__isnull=False).order_by("deadline")
        detail = "; ".join(f"{r.name.replace('_', ' ')} by {r.deadline:%B %-d, %Y}" for r in due[:3])
        flags.append(("bad", f"Declared {d.get_classification_display().lower()}", detail, d.case_id))
    for q in QuarantineOrder.objects.filter(animal=animal, released_on=None, case__closed_on=None):
        until = (
            q.extended_until
            or q.case.deadlines.filter(done_on=None, superseded=False)
            .order_by("-due_on")
            .values_list("due_on", flat=True)
            .first()
        )  # noqa: E501
        flags.append(("bad", "Under quarantine", f"until {until:%B %-d, %Y}" if until else "", q.case_id))
    for i in Impoundment.objects.filter(animal=animal, disposition="", case__closed_on=None):
        flags.append(("warn", "Impounded", f"since {i.impounded_on:%B %-d, %Y}, at {i.held_at}", i.case_id))
    current = License.objects.filter(animal=animal, voided_at=None, expires_on__gte=on).order_by("-expires_on").first()
    if current is None:
        last = License.objects.filter(animal=animal, voided_at=None).order_by("-expires_on").first()
        if last is not None:
            flags.append(("warn", "License expired", f"on {last.expires_on:%B %-d, %Y}", None))
        else:
            flags.append(("warn", "Not licensed", "", None))
    else:
        flags.append(("ok", f"Licensed {current.license_year}", f"tag {current.serial}", None))
    vaccinations = [v for v in animal.vaccinations.all() if v.voided_at is None]
    latest = max((v.expires_on for v in vaccinations), default=None)
    if latest is None:
        flags.append(("warn", "No rabies certificate", "", None))
    elif latest < on:
        flags.append(("bad", "Rabies vaccination expired", f"on {latest:%B %-d, %Y}", None))
    elif latest <= on + timedelta(days=RABIES_WARNING_DAYS):
        flags.append(("warn", "Rabies vaccination expiring", f"on {latest:%B %-d, %Y}", None))
    return {"flags": flags}


@register.inclusion_tag("reports/_person_records.html")
def person_records(person):
    return {
        "licenses": License.objects.filter(holder=person).order_by("-license_year", "serial")[:50],
        "cases": Case.objects.filter(owner=person).order_by("-opened_on")[:50],
        "citations": Citation.objects.filter(case__owner=person).select_related("case")[:50],
        "renewal_reminders": RenewalReminder.objects.filter(person=person).select_related("animal", "text")[:50],
        "consents": TextConsent.objects.filter(person=person).select_related("recorded_by", "stopped_by")[:50],
        "person": person,
    }
