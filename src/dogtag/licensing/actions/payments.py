"""A payment received at the counter, checked against the amount due and numbered from the
municipality's receipt counter of the year. Called inside the caller's transaction."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Max
from django.utils import timezone

from dogtag.audit.action_names import Action
from dogtag.audit.record import record
from dogtag.licensing.models import Payment, ReceiptCounter
from dogtag.registry.models import today
from dogtag.rules.decision import ZERO


def record_payment(*, acting_user, **payment) -> Payment | None:
    """The whole amount due, by cash, check or card (None when nothing is due); refused, naming the field, otherwise.
    Its arguments are `_payment_of`'s."""
    if (paid := _payment_of(acting_user=acting_user, **payment)) is not None:
        _numbered(paid)
        record(acting_user=acting_user, action=Action.PAYMENT_RECORD, obj=paid)
    return paid


def _payment_of(*, acting_user, municipality, payer, due: Decimal, payment: dict | None, what: str = "license"):
    """`record_payment`'s payment checked and made, not yet numbered or saved."""
    if due == 0:
        return None
    if not payment or not any(payment.values()):
        raise ValidationError({"amount": f"${due} is due; record the payment."})
    amount = Decimal(str(payment.get("amount") or "0"))
    method = payment.get("method") or ""
    errors = {}
    if amount != due:
        errors["amount"] = (
            f"${amount} received but ${due} is due; a {what} is issued only on payment of the whole amount."
        )
    if method not in Payment.Method.values:
        errors["method"] = "Choose cash, check or card."
    elif method == Payment.Method.CHECK and not payment.get("check_number"):
        errors["check_number"] = "Enter the check number."
    elif method == Payment.Method.CARD and not payment.get("card_reference"):
        errors["card_reference"] = "Enter the card transaction reference."
    if errors:
        raise ValidationError(errors)
    # A card paid online: the processor's time and the municipality's convenience fee, both
    # settled by the processor's verified payment (payments/actions.py), never typed by a clerk.
    received_at = payment.get("received_at")
    return Payment(
        municipality=municipality,
        payer=payer,
        amount=amount,
        method=method,
        check_number=payment.get("check_number") or "",
        card_reference=payment.get("card_reference") or "",
        convenience_fee=payment.get("convenience_fee") or ZERO,
        received_by=acting_user,
        received_at=received_at or timezone.now(),
        receipt_year=timezone.localdate(received_at).year if received_at else today().year,
    )


def _numbered(payment: Payment) -> None:
    """The next receipt number of the municipality's year, taken from its counter row in one
    statement (UPDATE ... RETURNING, PostgreSQL and SQLite alike), made with the year's first
    receipt; the payment saved with it (or, saved already, given it)."""
    municipality, year = payment.municipality, payment.receipt_year
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {qn(ReceiptCounter._meta.db_table)} SET {qn('last')} = {qn('last')} + 1 "
            f"WHERE municipality_id = %s AND {qn('year')} = %s RETURNING {qn('last')}",
            [municipality.pk, year],
        )
        row = cursor.fetchone()
    if row is None:
        last = Payment.objects.filter(municipality=municipality, receipt_year=year).aggregate(n=Max("receipt_serial"))
        ReceiptCounter.objects.get_or_create(municipality=municipality, year=year, defaults={"last": last["n"] or 0})
        return _numbered(payment)
    payment.receipt_serial = row[0]
    if payment.pk is None:
        payment.save()
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {qn(Payment._meta.db_table)} SET receipt_serial = %s WHERE id = %s", [row[0], payment.pk]
        )
