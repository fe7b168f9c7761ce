"""Impoundment: intake with the officer's basis, notice, the holding deadline, release only when
the law's conditions hold, and the unclaimed animal's disposition."""

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction

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
    currently_immunized,
    drop,
    meet,
    not_in_future,
    open_case,
    set_deadline,
)
from dogtag.enforcement.district import licenses_on
from dogtag.enforcement.models import (
    Case,
    Impoundment,
)
from dogtag.lib.dates import shown, today
from dogtag.licensing.models import own_or_covering
from dogtag.registry.actions import save_record


def _holding(imp) -> None:
    """(Re)compute the holding deadline from what is known about the notice."""
    decision = law.ask(
        imp.municipality,
        "impoundment_holding",
        {
            "impounded_on": imp.impounded_on,
            "owner_known": imp.owner_known,
            "notice_on": imp.notice_on,
            "notice_received_on": imp.notice_received_on,
            "bit_person": imp.bit_person,
        },
        imp.impounded_on,
    )
    if decision.value.claim_by is None:
        if not imp.notice_on:
            set_deadline(
                imp.case, "notice", "Notify the owner (or post the notice in public places)", imp.impounded_on, decision
            )
        return
    claim_by = decision.value.claim_by
    set_deadline(
        imp.case,
        "claim_by",
        f"Last day for the owner to claim; unclaimed from {decision.value.unclaimed_from:%B %-d, %Y}",
        claim_by,
        decision,
    )


# The engine's name for the conduct behind each reason the officer records.
IMPOUNDMENT_GROUNDS = {
    Impoundment.Reason.AT_LARGE: "at_large",
    Impoundment.Reason.UNLICENSED: "unlicensed",
    Impoundment.Reason.BITE: "attacks_person",
    Impoundment.Reason.VICIOUS: "attacks_person",
    Impoundment.Reason.NUISANCE: "barks_or_howls",
    Impoundment.Reason.QUARANTINE: "not_confined_in_rabies_quarantine",
    Impoundment.Reason.OTHER: "other",
}


@transaction.atomic
def impound(
    *,
    acting_user,
    municipality,
    description,
    found_at,
    reason,
    held_at,
    animal=None,
    owner=None,
    impounded_on=None,
    officer_saw_or_heard=False,
    sworn_complaint=False,
    bit_person=False,
) -> Impoundment:
    require_role(acting_user, municipality.pk, OFFICERS)
    impounded_on = as_date(impounded_on) or today()
    # The same impoundment sent twice (a double click, a retried call) is the one on record.
    same = {"impounded_on": impounded_on, "found_at": found_at, "reason": reason, "disposition": ""}
    if animal is None:
        same["description"] = description
    recorded = Impoundment.objects.filter(municipality=municipality, animal=animal, **same).first()
    if recorded is not None:
        return recorded
    basis = law.ask(
        municipality,
        "impoundment_basis",
        {
            "officer_saw_or_heard": officer_saw_or_heard,
            "sworn_complaint": sworn_complaint,
            "ground": IMPOUNDMENT_GROUNDS.get(reason),
        },
        impounded_on,
    )
    if basis.value.ground_listed is False:
        reason_label = Impoundment.Reason(reason).label if reason in Impoundment.Reason.values else reason
        raise ValidationError(
            {
                "reason": f"{law.sections(basis)} does not let an officer impound an animal for this reason "
                f"({reason_label.lower()})."
            }
        )
    if basis.value.evidence_met is False:
        raise ValidationError(
            {
                "officer_saw_or_heard": f"{law.sections(basis)} requires that the impounding officer saw or heard the "
                "violation or holds a signed statement of a complaining witness made under oath."
            }
        )
    number = 1
    if animal is not None:
        number += Impoundment.objects.filter(animal=animal).count()
    case = open_case(
        acting_user=acting_user,
        municipality=municipality,
        kind=Case.Kind.IMPOUNDMENT,
        title=f"Impounded {shown(as_date(impounded_on))}: {animal or description}",
        animal=animal,
        owner=owner,
        opened_on=impounded_on,
    )
    imp = Impoundment(
        municipality=municipality,
        case=case,
        animal=animal,
        description=description or str(animal),
        impounded_on=impounded_on,
        found_at=found_at,
        reason=reason,
        officer_saw_or_heard=officer_saw_or_heard,
        sworn_complaint=sworn_complaint,
        basis_decision=law.stored(basis),
        bit_person=bit_person,
        held_at=held_at,
        impoundment_number=number,
    )
    imp = save_record(imp, acting_user=acting_user, action=Action.IMPOUNDMENT_CREATE, roles=OFFICERS)
    _holding(imp)
    if animal is not None:  # a seizure a declaration called for (River Hills § 2.14(6)[e](1)(ix)) is done
        for declared in Case.objects.filter(animal=animal, kind=Case.Kind.DECLARATION, closed_on=None):
            meet(declared, "seizure", imp.impounded_on, f"impounded (case #{case.pk})")
    return imp


@transaction.atomic
def give_impound_notice(imp, *, acting_user, notice_method, notice_on, notice_received_on=None, posted_at=""):
    notice_on, notice_received_on = as_date(notice_on), as_date(notice_received_on)
    not_in_future(notice_on=notice_on, notice_received_on=notice_received_on)
    notice = {"notice_method": notice_method, "notice_on": notice_on, "notice_received_on": notice_received_on}
    if already(imp, acting_user=acting_user, roles=STAFF, **notice, posted_at=posted_at):
        return imp
    if imp.owner_known and notice_method == Impoundment.Notice.POSTING:
        raise ValidationError({"notice_method": "The owner is known: notify the owner in person or by mail."})
    held = imp.case.deadlines.filter(key__in=("notice", "claim_by")).first()
    where = f" ({law.sections(held.citations)})" if held else ""
    if not imp.owner_known and notice_method != Impoundment.Notice.POSTING:
        raise ValidationError(
            {"notice_method": f"The owner is unknown: post the written notice in public places{where}."}
        )
    if notice_method == Impoundment.Notice.POSTING and not posted_at.strip():
        # How many places the ordinance wants is in its text (§ 98-7, § 7-1-7(c): three); the
        # rule packs carry no figure for it yet, so Dogtag asks for the places, not a count.
        raise ValidationError({"posted_at": f"Name the public places where the notice is posted{where}."})
    if notice_on < imp.impounded_on:
        raise ValidationError(
            {"notice_on": f"Notice on {shown(notice_on)} is before the impoundment ({shown(imp.impounded_on)})."}
        )
    if notice_received_on and notice_received_on < notice_on:
        raise ValidationError({"notice_received_on": f"Received before it was given ({shown(notice_on)})."})
    imp = change(
        imp,
        acting_user=acting_user,
        action=Action.IMPOUNDMENT_NOTICE,
        roles=STAFF,
        notice_method=notice_method,
        notice_on=notice_on,
        notice_received_on=notice_received_on,
        posted_at=posted_at,
    )
    meet(imp.case, "notice", notice_on, imp.get_notice_method_display())
    _holding(imp)
    return imp


def licensed(animal, on: date) -> bool:
    """A license from the clerk (individual or multiple-dog), not void, in force on `on`."""
    return licenses_on(on).filter(own_or_covering(animal.pk)).exists()


def release_decision(
    imp,
    *,
    on,
    license_prepaid=False,
    vaccination_prepaid=False,
    tagged=False,
    charges_paid=False,
    proof_of_ownership=True,
):
    facts = {
        "impounded_on": imp.impounded_on,
        "impoundment_number": imp.impoundment_number,
        "proof_of_ownership": proof_of_ownership,
        "license_required": imp.animal is None or imp.animal.species in ("dog", "cat"),
        "licensed": imp.animal is not None and licensed(imp.animal, on),
        "license_prepaid": license_prepaid,
        "vaccinated": imp.animal is not None and currently_immunized(imp.animal, on),
        "vaccination_prepaid": vaccination_prepaid,
        "tagged": tagged,
        "charges_paid": charges_paid,
    }
    return law.ask(imp.municipality, "impoundment_release", facts, on)


CONDITION_WORDS = {
    "proof_of_ownership": "proof of ownership",
    "licensed_or_prepaid": "a license from the clerk (or its prepayment)",
    "vaccinated_or_prepaid": "a current rabies vaccination in the registry (or its prepayment)",
    "charges_paid": "payment of the impoundment fees and charges",
    "licensed": "a license from the clerk, as state law requires",
    "tagged": "the dog properly tagged",
}


@transaction.atomic
def release_impoundment(imp, *, acting_user, released_on=None, fee_paid=None, license_note="", **conditions):
    """Release to the owner only when the law's conditions hold; otherwise a refusal naming
    what is missing and the sections that require it."""
    released_on = as_date(released_on) or today()
    if imp.disposition:
        raise ValidationError(
            {"__all__": f"Already disposed of: {imp.get_disposition_display()} on {shown(imp.disposed_on)}."}
        )
    decision = release_decision(imp, on=released_on, **conditions)
    problems = [CONDITION_WORDS[c] for c in decision.value.unmet]
    if decision.not_set:
        problems.append(law.not_set_message(decision))
    fee = decision.value.fee
    if fee is not None and (fee_paid is None or Decimal(fee_paid) < fee):
        problems.append(f"the release fee of ${fee:.2f} (paid: ${Decimal(fee_paid or 0):.2f})")
    if problems:
        raise ValidationError({"__all__": f"Not released: missing {'; '.join(problems)} ({law.sections(decision)})."})
    imp = change(
        imp,
        acting_user=acting_user,
        action=Action.IMPOUNDMENT_RELEASE,
        roles=STAFF,
        release_decision=law.stored(decision),
        disposition=Impoundment.Disposition.OWNER,
        disposed_on=released_on,
        disposed_to=imp.case.owner.name if imp.case.owner else "the owner",
        decided_by=acting_user,
        fee_paid=fee_paid,
        license_note=license_note,
    )
    meet(imp.case, "claim_by", released_on, "released to the owner")
    drop(imp.case, "notice")
    close(imp.case, released_on, "Released to the owner")
    return imp


@transaction.atomic
def dispose_unclaimed(imp, *, acting_user, disposition, disposed_on=None, disposed_to=""):
    disposed_on = as_date(disposed_on) or today()
    if imp.disposition:
        raise ValidationError({"disposition": f"Already disposed of on {shown(imp.disposed_on)}."})
    if disposition == Impoundment.Disposition.OWNER:
        raise ValidationError({"disposition": "Release to the owner goes through the release conditions."})
    if disposition in (Impoundment.Disposition.OTHER_PERSON, Impoundment.Disposition.SOLD) and not disposed_to.strip():
        raise ValidationError({"disposed_to": "Name the person the animal goes to."})
    deadline = imp.case.deadlines.filter(key="claim_by", superseded=False).first()
    if deadline is None:
        raise ValidationError(
            {"disposition": "The holding period has not started: give the owner notice (or post it) first."}
        )
    if disposed_on <= deadline.due_on:
        raise ValidationError(
            {
                "disposed_on": f"The owner may claim the animal through {deadline.due_on:%B %-d, %Y} "
                f"({law.sections(deadline.citations)}); it is unclaimed only from the day after."
            }
        )
    imp = change(
        imp,
        acting_user=acting_user,
        action=Action.IMPOUNDMENT_DISPOSE,
        roles=OFFICERS,
        disposition=disposition,
        disposed_on=disposed_on,
        disposed_to=disposed_to,
        decided_by=acting_user,
    )
    meet(imp.case, "claim_by", deadline.due_on, "unclaimed")
    close(imp.case, disposed_on, f"Unclaimed: {imp.get_disposition_display()}")
    return imp
