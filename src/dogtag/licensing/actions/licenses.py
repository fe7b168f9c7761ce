"""A dog or cat license: issued on what the law says is owed, voided or revoked, its lost tag
replaced."""

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import event, record, record_all, save_and_record, snapshot
from dogtag.licensing.actions.payments import _numbered, _payment_of, record_payment
from dogtag.licensing.actions.roles import CLERKS, REVOKERS
from dogtag.licensing.actions.tags import move_counter_to, take_tag
from dogtag.licensing.charges import charge_on
from dogtag.licensing.facts import current_owner, read_facts
from dogtag.licensing.models import License, Payment, Refund, Tag
from dogtag.licensing.owed import what_is_owed
from dogtag.registry.models import today
from dogtag.rules.decision import ZERO, citations_json


@transaction.atomic
def issue_license(
    animal,
    *,
    acting_user,
    payment: dict | None = None,
    tag_serial: int | None = None,
    license_year: int | None = None,
    on: date | None = None,
    owed=None,
) -> License:
    """Issue the license the law allows today: refused, with nothing written, while any
    reason in `what_is_owed` stands. The counter passes the `owed` it has just shown the clerk
    (for this animal, day and year), so the figures are not worked out twice; a license issued
    meanwhile still fails on the unique license below."""
    require_role(acting_user, animal.municipality_id, CLERKS)
    on = on or today()
    if owed is None or owed.on != on or (license_year is not None and owed.license_year != license_year):
        owed = what_is_owed(read_facts(animal, on, license_year))
    if owed.refusals:
        raise ValidationError(
            {r.field: [o.message for o in owed.refusals if o.field == r.field] for r in owed.refusals}
        )
    owner = current_owner(animal, on)
    if owner is None:
        raise ValidationError({"owner": f"{animal.name} has no current owner on record."})
    paid = _payment_of(
        acting_user=acting_user, municipality=animal.municipality, payer=owner, due=owed.total, payment=payment
    )
    # The tag first: taking it waits for no other clerk, while the tag counter, the receipt number
    # and the audit chain hold the others until the issue commits, so they are taken last.
    tag = take_tag(animal.municipality, owed.license_year, tag_serial)
    license = License(
        municipality=animal.municipality,
        license_year=owed.license_year,
        serial=tag.serial,
        animal=animal,
        holder=owner,
        issued_on=on,
        expires_on=owed.expires_on,
        tax=owed.tax,
        late_fee=owed.late_fee,
        late_fee_trigger=owed.late_fee_trigger,
        free_license=owed.free_license,
        payment=paid,
        vaccination=owed.vaccination,
        issued_by=acting_user,
        owner_name=owner.name,
        owner_address=owner.address,
        animal_name=animal.name,
        **{name: getattr(animal, name) for name in ("species", "sex", "altered", "breed", "color")},
        county=animal.municipality.county,
        citations=citations_json(owed.citations()),
    )
    try:
        # No savepoint of its own: a duplicate refused here rolls back the whole action (its own
        # savepoint when called inside another transaction).
        if paid is not None:
            paid.save()
        license.save()
        Tag.objects.filter(pk=tag.pk).update(license=license)
        if tag_serial is None:
            move_counter_to(tag)
        events = []
        if paid is not None:
            _numbered(paid)
            events.append(event(acting_user=acting_user, action=Action.PAYMENT_RECORD, obj=paid))
        # Both events in one statement, last: the audit chain's lock is held only to the commit.
        record_all([*events, event(acting_user=acting_user, action=Action.LICENSE_ISSUE, obj=license)])
    except IntegrityError:
        raise ValidationError(
            {"license": f"A {owed.license_year} license for {animal.name} was issued a moment ago."}
        ) from None
    return license


@transaction.atomic
def void_license(license, *, acting_user, reason: str, refund: dict | None = None) -> License:
    """Void a license issued in error; its tag is retired (never reissued) and stays on record.
    Its payment is either handed back (`refund`: method, amount, check number; a Refund in the
    day's close of today) or, with no refund, was itself taken in error and is voided with it.
    Either way the voided license's money no longer counts as received."""
    refund = {k: v for k, v in (refund or {}).items() if v not in (None, "")}
    payment = license.payment
    if refund:
        refund = _refund_fields(license, refund)
    voided = _void(license, acting_user=acting_user, reason=reason, roles=CLERKS, action=Action.LICENSE_VOID)
    if payment is None or payment.voided_at:
        return voided
    if refund:
        save_and_record(
            Refund(municipality=license.municipality, payment=payment, license=license, reason=reason,
                   refunded_by=acting_user, **refund),
            acting_user=acting_user,
            action=Action.PAYMENT_REFUND,
        )  # fmt: skip
    elif not payment.licenses.filter(voided_at=None).exists() and not payment.refunds.exists():
        before = snapshot(payment)
        payment.voided_at, payment.void_reason = timezone.now(), f"License {license.serial} voided: {reason}"
        save_and_record(payment, acting_user=acting_user, action=Action.PAYMENT_VOID, before=before)
    return voided


def _refund_fields(license, refund: dict) -> dict:
    if (payment := license.payment) is None:
        raise ValidationError(
            {"refund_amount": f"Nothing was paid for license {license.serial}; there is nothing to refund."}
        )
    errors = {}
    try:
        amount = Decimal(str(refund.get("amount") or "0"))
    except ArithmeticError:
        amount = Decimal("-1")
    left = payment.amount - (payment.refunds.aggregate(total=Sum("amount"))["total"] or ZERO)
    if not amount.is_finite() or amount <= 0:
        errors["refund_amount"] = "Enter the amount handed back, in dollars and cents."
    elif amount > left:
        errors["refund_amount"] = f"${amount} is more than the ${left} paid and not yet refunded."
    method = refund.get("method") or ""
    if method not in Payment.Method.values:
        errors["refund_method"] = "Choose how the money is handed back: cash, check or card."
    elif method == Payment.Method.CHECK and not refund.get("check_number"):
        errors["refund_check_number"] = "Enter the number of the refund check."
    if errors:
        raise ValidationError(errors)
    return {"amount": amount, "method": method, "check_number": refund.get("check_number", "")}


@transaction.atomic
def revoke_license(license, *, acting_user, reason: str) -> License:
    """A license the law revokes on an officer's finding (River Hills § 2.14(6)[e](1)(ix)):
    void like one issued in error, with the reason, by the officer or the clerk; called inside
    the finding's transaction."""
    return _void(license, acting_user=acting_user, reason=reason, roles=REVOKERS, action=Action.LICENSE_REVOKE)


def _void(license, *, acting_user, reason, roles, action) -> License:
    require_role(acting_user, license.municipality_id, roles)
    if not reason.strip():
        raise ValidationError({"reason": "Say why the license is void."})
    if license.voided_at:
        raise ValidationError({"reason": f"License {license.serial} is already void."})
    before = snapshot(license)
    license.voided_at, license.void_reason = timezone.now(), reason
    license.tags.filter(status=Tag.Status.ISSUED).update(status=Tag.Status.VOIDED)
    return save_and_record(license, acting_user=acting_user, action=action, before=before)


@transaction.atomic
def replace_tag(license, *, acting_user, tag_serial: int | None = None, payment: dict | None = None) -> Tag:
    """A lost tag is retired and a new one from stock carries the license on; when the fee
    schedule sets a replacement-tag charge on the day, it is paid first, with a receipt."""
    require_role(acting_user, license.municipality_id, CLERKS)
    if license.voided_at:
        raise ValidationError({"license": f"License {license.serial} is void."})
    charge = charge_on(license.municipality, "replacement_tag", today())
    tag = take_tag(license.municipality, license.license_year, tag_serial)
    if tag_serial is None:
        move_counter_to(tag)  # before the receipt number
    paid = record_payment(
        acting_user=acting_user,
        municipality=license.municipality,
        payer=license.holder,
        due=charge.amount if charge else ZERO,
        payment=payment,
        what="replacement tag",
    )
    before = snapshot(license)
    license.tags.filter(status=Tag.Status.ISSUED).update(status=Tag.Status.LOST)
    Tag.objects.filter(pk=tag.pk).update(license=license, replacement_payment=paid)
    tag.license, tag.replacement_payment = license, paid
    record(acting_user=acting_user, action=Action.LICENSE_REPLACE_TAG, obj=license, before=before)
    return tag
