"""The day's differences between the processor's charges and refunds and Dogtag's receipts.
Reads only; `actions.reconcile` keeps what it finds. Set-based: the day's receipts and
checkouts are read in chunks of references, never one query per charge."""

from collections import defaultdict
from datetime import date

from dogtag.licensing.models import Payment
from dogtag.payments.models import Checkout, ProcessorRefund
from dogtag.rules.decision import ZERO

CHUNK = 2000


def _chunks(items, size=CHUNK):
    items = list(items)
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _by_reference(queryset, field, references):
    found = defaultdict(list)
    for chunk in _chunks(references):
        for row in queryset.filter(**{f"{field}__in": chunk}):
            found[getattr(row, field)].append(row)
    return found


def _difference(kind, text, movement=None, amount_dogtag=None):
    return {
        "kind": kind,
        "text": text,
        "processor_id": movement.id if movement else "",
        "reference": movement.reference if movement else "",
        "amount_processor": str(movement.amount) if movement else "",
        "amount_dogtag": "" if amount_dogtag is None else str(amount_dogtag),
    }


def differences(municipality, processor: str, day: date, movements) -> list[dict]:
    from dogtag.payments.actions import day_bounds

    charges = [m for m in movements if m.kind == "charge"]
    refunds = [m for m in movements if m.kind == "refund"]
    card = Payment.objects.filter(municipality=municipality, method=Payment.Method.CARD)
    receipts = _by_reference(card, "card_reference", {m.reference for m in charges})
    checkouts = _by_reference(
        Checkout.objects.filter(municipality=municipality, processor=processor).prefetch_related("refunds"),
        "reference",
        {m.reference for m in charges},
    )
    found = []
    for charge in charges:
        paid = [p for p in receipts.get(charge.reference, []) if p.voided_at is None]
        settled = checkouts.get(charge.reference, [])
        if not paid:
            if any(c.status == Checkout.Status.REFUSED for c in settled):
                continue  # refused and refunded: the refund is checked below
            if any(c.status == Checkout.Status.PAID and c.citation_id for c in settled):
                continue  # a forfeiture: recorded paid on the citation, which has no receipt of licensing's
            if any(c.status == Checkout.Status.PAID for c in settled):
                found.append(_difference("awaiting-receipt", "Paid online; the application waits for the clerk's "
                                         "approval, which writes the receipt.", charge))  # fmt: skip
            else:
                found.append(_difference("missing-receipt", "The processor took this payment; Dogtag has no receipt.",
                                         charge))  # fmt: skip
        elif (total := sum((p.amount + p.convenience_fee for p in paid), ZERO)) != charge.amount - sum(
            (r.amount for c in settled for r in c.refunds.all() if r.refund_id is None), ZERO
        ):
            # The receipts of a household's cart together, each with its card convenience fee;
            # less a part sent back through the processor (an animal of the cart not licensed).
            text = f"The processor took ${charge.amount}; the receipt says ${total}."
            found.append(_difference("amount-mismatch", text, charge, total))
    start, end = day_bounds(day)
    seen = {m.reference for m in charges}
    online = Checkout.objects.filter(municipality=municipality, processor=processor).exclude(reference="")
    unmatched = [
        p
        for p in card.filter(received_at__gte=start, received_at__lt=end, voided_at=None).exclude(card_reference="")
        if p.card_reference not in seen
    ]
    known = _by_reference(online, "reference", {p.card_reference for p in unmatched})
    for payment in unmatched:
        if known.get(payment.card_reference):
            found.append(
                {**_difference("receipt-without-charge", f"Receipt {payment.receipt_number} names a payment the "
                               "processor did not take that day.", amount_dogtag=payment.amount),
                 "reference": payment.card_reference}
            )  # fmt: skip
    sent = _by_reference(
        ProcessorRefund.objects.filter(municipality=municipality), "processor_refund_id", {m.id for m in refunds}
    )
    for refund in refunds:
        if not sent.get(refund.id):
            found.append(_difference("refund-not-recorded", "The processor refunded this; Dogtag has no record of it.",
                                     refund))  # fmt: skip
    waiting = ProcessorRefund.objects.filter(municipality=municipality, created_at__gte=start, created_at__lt=end)
    for left in waiting.exclude(status=ProcessorRefund.Status.SUCCEEDED):
        found.append(
            {**_difference("refund-not-made", f"A refund of ${left.amount} is not yet made by the processor: "
                           f"{left.error or left.get_status_display()}.", amount_dogtag=left.amount),
             "reference": left.checkout.reference}
        )  # fmt: skip
    return found
