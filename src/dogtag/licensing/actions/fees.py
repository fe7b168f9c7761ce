"""The fee schedule: an amount the ordinance leaves to the municipality, set from a date and
voided, never changed (the state's limits checked by the rule engine)."""

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import save_and_record, snapshot
from dogtag.lib.dates import shown
from dogtag.licensing import law
from dogtag.licensing.actions.roles import CLERKS
from dogtag.licensing.charges import CHARGES
from dogtag.licensing.facts import local_amounts
from dogtag.licensing.models import FeeScheduleEntry
from dogtag.licensing.owed import fee_label
from dogtag.rules.delegations import delegated_amounts
from dogtag.rules.limits import state_limits


@transaction.atomic
def set_fee(*, acting_user, municipality, key: str, amount: Decimal, effective_on: date, authority: str):
    """Set a delegated amount from a date; earlier values stay, so past licenses keep their fee."""
    require_role(acting_user, municipality.pk, CLERKS)
    delegated = delegated_amounts(law.pack_of(municipality))
    errors = {}
    try:
        amount = Decimal(str(amount)) if amount is not None else None
    except ArithmeticError:
        amount = None
    if key not in delegated and key not in CHARGES:
        errors["key"] = f"{municipality}'s ordinance leaves no amount called {key!r} to the fee schedule."
    if amount is None or not amount.is_finite() or amount < 0:
        errors["amount"] = "Enter an amount of $0.00 or more, in dollars and cents."
    elif key in delegated and (
        # Checked against the law as ruled on the day the amount takes effect: a ruling on the
        # reading that holds a local figure to the state's (Webster § 98-4's late fee) governs
        # amounts from its effective date, not those before it.
        refused := state_limits(
            law.pack_of(municipality, effective_on),
            key,
            amount,
            effective_on,
            {k: dated.at(effective_on) for k, dated in local_amounts(municipality).items()},
        )
    ):
        errors["amount"] = " ".join(f"{o.message} (Wis. Stats. {o.citation.section})." for o in refused)
    if not authority.strip():
        errors["authority"] = "Name the resolution or section that set this amount."
    if errors:
        raise ValidationError(errors)
    if FeeScheduleEntry.objects.filter(
        municipality=municipality, key=key, effective_on=effective_on, voided_at=None
    ).exists():
        raise ValidationError(
            {
                "effective_on": f"The {fee_label(key)} already has an amount from {shown(effective_on)}: the "
                "fee schedule keeps one amount a day, so void that entry first."
            }
        )
    entry = FeeScheduleEntry(
        municipality=municipality,
        key=key,
        amount=amount,
        effective_on=effective_on,
        authority=authority,
        created_by=acting_user,
    )
    return save_and_record(entry, acting_user=acting_user, action=Action.FEE_SET)


@transaction.atomic
def void_fee(entry, *, acting_user, reason: str):
    require_role(acting_user, entry.municipality_id, CLERKS)
    if not reason.strip():
        raise ValidationError({"reason": "Say why this amount is void."})
    before = snapshot(entry)
    entry.voided_at, entry.void_reason = timezone.now(), reason
    return save_and_record(entry, acting_user=acting_user, action=Action.FEE_VOID, before=before)
