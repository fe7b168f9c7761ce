"""Citations: the offense number from the person's history and the forfeiture from the engine."""

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.enforcement import law
from dogtag.enforcement.actions.cases import (
    OFFICERS,
    STAFF,
    already,
    as_date,
    change,
    close,
    drop,
    meet,
    open_case,
    same_municipality,
    set_deadline,
)
from dogtag.enforcement.models import (
    Case,
    Citation,
    as_cited,
)
from dogtag.lib import plausible_dates
from dogtag.lib.dates import shown, today
from dogtag.registry.actions import save_record
from dogtag.rules.decision import ZERO


def offense_number(person, violation: str, on: date) -> int:
    """This person's earlier citations for the same section, not voided, plus one."""
    return Citation.objects.filter(person=person, violation=violation, voided_at=None, violated_on__lt=on).count() + 1


def _section_of(decision) -> str:
    """The section that sets the forfeiture (the engine's first citation), not every section it read."""
    return decision.citations[0].section if decision.citations else law.sections(decision)


@transaction.atomic
def issue_citation(
    *,
    acting_user,
    municipality,
    person,
    violation,
    description,
    violated_on,
    animal=None,
    days=1,
    forfeiture=None,
    costs=ZERO,
    court_date=None,
    issued_on=None,
) -> Citation:
    require_role(acting_user, municipality.pk, OFFICERS)
    same_municipality("person", person, municipality.pk)
    violated_on, court_date, issued_on = as_date(violated_on), as_date(court_date), as_date(issued_on) or today()
    errors = {}
    plausible_dates.check(errors, plausible_dates.HAPPENED, violated_on, "violated_on", "Violation date")
    plausible_dates.check(errors, plausible_dates.RUNS, court_date, "court_date", "Court date")
    if court_date and issued_on and court_date < issued_on and "court_date" not in errors:
        errors["court_date"] = (
            f"Court date {shown(court_date)} is before the citation is issued on {shown(issued_on)}; "
            f"the court date is the day the person appears, after the citation."
        )
    if errors:
        raise ValidationError(errors)
    # One citation a person, animal, violation and day (a violation over several days is one
    # citation with `days`): the same form sent twice does not cite twice.
    issued = Citation.objects.filter(
        person=person, animal=animal, violation=violation, violated_on=violated_on, voided_at=None
    ).first()
    if issued is not None:
        raise ValidationError(
            {
                "violation": f"Citation #{issued.pk} was issued on {issued.issued_on:%B %-d, %Y} to {person} for "
                f"{as_cited(violation)} on {violated_on:%B %-d, %Y}; void it to cite again."
            }
        )
    number = offense_number(person, violation, violated_on)
    decision = law.ask(
        municipality, "forfeiture", {"violation": violation, "offense_number": number}, violated_on, field="violation"
    )
    if decision.not_set:
        raise ValidationError({"forfeiture": f"No forfeiture can be set: {law.not_set_message(decision)}."})
    if not decision.value.applies:
        raise ValidationError({"violation": f"{'; '.join(decision.notes)} ({_section_of(decision)})."})
    low, high = decision.value.minimum, decision.value.maximum
    if low is None or high is None:
        raise ValidationError(
            {"violated_on": f"No forfeiture for {as_cited(violation)} is on record for {violated_on:%B %-d, %Y}."}
        )
    forfeiture = low if forfeiture in (None, "") else Decimal(forfeiture)
    if not low <= forfeiture <= high:
        raise ValidationError(
            {
                "forfeiture": f"For offense {number} of {as_cited(violation)} the forfeiture is "
                f"${low:.2f} to ${high:.2f} ({_section_of(decision)})."
            }
        )
    if days > 1 and not decision.value.each_day_separate:
        raise ValidationError({"days": f"{law.sections(decision)} does not make each day a separate offense."})
    case = open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.CITATION,
        title=f"{as_cited(violation)}: {person}",
        animal=animal,
        owner=person,
        opened_on=issued_on,
    )
    citation = Citation(
        municipality=municipality,
        case=case,
        person=person,
        animal=animal,
        violation=violation,
        description=description,
        violated_on=violated_on,
        days=days,
        offense_number=number,
        minimum=low,
        maximum=high,
        forfeiture=forfeiture,
        plus_costs=decision.value.plus_costs,
        costs=costs,
        decision=law.stored(decision),
        issued_on=issued_on,
        court_date=court_date,
    )
    citation = save_record(citation, acting_user=acting_user, action=Action.CITATION_ISSUE, roles=OFFICERS)
    if court_date:
        set_deadline(case, "court", "Court date", court_date, decision)
    return citation


@transaction.atomic
def record_citation_paid(citation, *, acting_user, paid_on) -> Citation:
    if citation.voided_at:
        raise ValidationError({"paid_on": "This citation is void."})
    if already(citation, acting_user=acting_user, roles=STAFF, paid_on=as_date(paid_on)):
        return citation
    citation = change(
        citation, acting_user=acting_user, action=Action.CITATION_PAID, roles=STAFF, paid_on=as_date(paid_on)
    )
    meet(citation.case, "court", citation.paid_on, "paid")
    close(citation.case, citation.paid_on, "Forfeiture paid")
    return citation


@transaction.atomic
def record_cure(citation, *, acting_user, cured_on, cure_note) -> Citation:
    """A later license or compliance cures the violation; the citation stands."""
    if not cure_note.strip():
        raise ValidationError({"cure_note": "Say how it was cured (e.g. license number and date)."})
    if already(citation, acting_user=acting_user, roles=STAFF, cured_on=as_date(cured_on), cure_note=cure_note):
        return citation
    return change(
        citation,
        acting_user=acting_user,
        action=Action.CITATION_CURED,
        roles=STAFF,
        cured_on=as_date(cured_on),
        cure_note=cure_note,
    )


@transaction.atomic
def void_citation(citation, *, acting_user, reason) -> Citation:
    if not reason.strip():
        raise ValidationError({"reason": "Say why the citation is void."})
    if citation.voided_at:
        raise ValidationError({"reason": "This citation is already void."})
    citation = change(
        citation,
        acting_user=acting_user,
        action=Action.CITATION_VOID,
        roles=OFFICERS,
        voided_at=timezone.now(),
        void_reason=reason,
    )
    for d in citation.case.open_deadlines():
        drop(citation.case, d.key)
    close(citation.case, today(), f"Void: {reason}")
    return citation
