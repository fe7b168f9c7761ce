"""The writes of online payments. A call to the processor is never made inside a transaction
(a slow processor would hold the rows it is about): an action reads from the processor first,
then writes in one transaction with its audit event.

The processor's notification decides, not the browser: `receive_notification` stores it once
by its id, and `settle` re-reads the payment from the processor, checks the amount against what
the law computes for the application on the day it was paid, and records it through the
portal's and licensing's own actions."""

from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from dogtag.accounts.models import Membership, Role
from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import record, snapshot
from dogtag.enforcement import actions as enforcement
from dogtag.enforcement.models import Citation
from dogtag.lib import processors
from dogtag.lib.dates import today
from dogtag.lib.tasks import enqueue
from dogtag.licensing import actions as licensing
from dogtag.licensing.charges import charge_on
from dogtag.licensing.models import Payment, Refund
from dogtag.payments.models import Checkout, CheckoutItem, Notification, ProcessorRefund, Reconciliation
from dogtag.payments.providers import Forged, Refused, Unreachable, describe, for_municipality
from dogtag.portal import actions as portal
from dogtag.portal.models import Application
from dogtag.rules.decision import ZERO

SETTLE = "dogtag.payments.tasks.settle"
SEND_REFUND = "dogtag.payments.tasks.send_refund"


def processor_user(municipality):
    """The account online payments are received and licenses issued by, one per municipality:
    it cannot log in (no password, inactive) and serves only as the clerk role's actor in the
    audit trail and on the receipt ("received by Online payments")."""
    user, created = get_user_model().objects.get_or_create(
        username=f"online-payments-{municipality.slug}",
        defaults={"first_name": "Online payments", "last_name": f"({municipality})", "is_active": False},
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
        Membership.objects.get_or_create(user=user, municipality=municipality, role=Role.CLERK)
        record(acting_user=None, action=Action.PAYMENTS_PROCESSOR_USER, obj=user)
    return user


def _description(application) -> str:
    return describe(application)


def start_checkout(application, *, success_url: str, cancel_url: str, on: date | None = None) -> Checkout:
    """Open a payment on the municipality's processor for what the law computes today (plus the
    municipality's card convenience fee, if it set one), and return the checkout with the
    processor's page address. An open checkout of the same amount started today is reused.
    Refused, with nothing charged, when the processor does not answer."""
    on = on or today()
    municipality = application.municipality
    provider = for_municipality(municipality)
    if provider is None:
        raise ValidationError({"provider": no_payments_online(municipality)})
    if (application.status, application.payment_status) != (
        Application.Status.SUBMITTED,
        Application.PaymentStatus.ONLINE,
    ):
        raise ValidationError({"__all__": "This application has nothing to pay online."})
    form, owed = portal.check(application, on)
    if not form.is_valid() or owed.refusals:
        raise ValidationError({"__all__": "The application no longer passes its checks; the clerk will contact you."})
    fee = convenience_fee(municipality, on)
    reusable = (
        application.checkouts.filter(
            status=Checkout.Status.OPEN, processor=provider.key, amount=owed.total + fee, quoted_on=on,
            started_at__gte=timezone.now() - timedelta(minutes=settings.DOGTAG_CHECKOUT_MINUTES - 5),
        ).exclude(url="").order_by("-pk").first()
    )  # fmt: skip
    if reusable:
        return reusable
    return _open(provider, municipality, [], owed.total, fee, on, success_url, cancel_url, _description(application),
                 application=application)  # fmt: skip


def household(application):
    """The applications of one household sent to be paid online and not yet paid: what one
    checkout may pay together, and all that its page shows (each animal's name, kind, license
    year and amount; nothing of the owner).

    A token proves nothing about a mailbox: whoever starts an application holds its token in the
    browser, whatever address they typed. So the others are shown only to the holder of an
    application whose address was confirmed (its emailed link followed, or a renewal sent to the
    address on record), and only those confirmed the same way to the same address, in the same
    municipality; until then the cart holds this application alone."""
    mine = Application.objects.filter(
        pk=application.pk, status=Application.Status.SUBMITTED, payment_status=Application.PaymentStatus.ONLINE
    )
    if application.email_confirmed_at is None:
        return mine.order_by("pk")
    return Application.objects.filter(
        municipality_id=application.municipality_id,
        email__iexact=application.email,
        email_confirmed_at__isnull=False,
        status=Application.Status.SUBMITTED,
        payment_status=Application.PaymentStatus.ONLINE,
    ).order_by("submitted_at", "pk")


def start_cart(application, *, success_url: str, cancel_url: str, on: date | None = None) -> Checkout:
    """One checkout for every animal of the household waiting to be paid online:
    a line for each with what the law computes for it today, and the card convenience fee once.
    Refused, naming the animal, when any of them no longer passes its checks."""
    on = on or today()
    municipality = application.municipality
    provider = for_municipality(municipality)
    if provider is None:
        raise ValidationError({"provider": no_payments_online(municipality)})
    applications = list(household(application).select_related("municipality", "animal"))
    if not applications:
        raise ValidationError({"__all__": "Nothing of yours is waiting to be paid online."})
    amounts = []
    for each in applications:
        form, owed = portal.check(each, on)
        if not form.is_valid() or owed.refusals:
            name = each.data.get("animal_name") or "one animal"
            raise ValidationError({"__all__": f"The application for {name} no longer passes its checks; "
                                              "pay the others one by one, or the clerk will contact you."})  # fmt: skip
        amounts.append(owed.total)
    fee = convenience_fee(municipality, on)
    total = sum(amounts, ZERO)
    names = ", ".join(a.data.get("animal_name", "") for a in applications)
    description = f"{municipality} {applications[0].license_year} licenses — {names}"
    items = list(zip(applications, amounts, strict=True))
    return _open(provider, municipality, items, total, fee, on, success_url, cancel_url, description,
                 application=applications[0])  # fmt: skip


def no_payments_online(municipality) -> str:
    return _("%(municipality)s takes no payments online; pay at the clerk's counter.") % {"municipality": municipality}


def forfeiture_due(citation) -> Decimal:
    """What the citation says is owed: the forfeiture the law set when it was issued (the rule
    engine's figure for that offense, kept on the citation), and the costs where it adds them."""
    return citation.forfeiture + (citation.costs if citation.plus_costs else ZERO)


def citation_refusal(citation) -> str:
    """Why the citation's forfeiture cannot be paid online now, or ""."""
    if not processors.forfeitures_online(citation.municipality):
        return _("%(municipality)s takes forfeitures at the court or the clerk's counter, not online.") % {
            "municipality": citation.municipality
        }
    if citation.voided_at:
        return _("This citation is void: nothing is owed.")
    if citation.paid_on:
        return _("This citation's forfeiture is already paid.")
    return ""


def start_citation_checkout(citation, *, success_url: str, cancel_url: str, on: date | None = None) -> Checkout:
    """Open a payment of a citation's forfeiture on the municipality's processor, where the
    municipality takes forfeitures online: one payment of the whole amount."""
    on = on or today()
    municipality = citation.municipality
    provider = for_municipality(municipality)
    if provider is None:
        raise ValidationError({"provider": no_payments_online(municipality)})
    if refusal := citation_refusal(citation):
        raise ValidationError({"__all__": refusal})
    amount = forfeiture_due(citation)
    reusable = (
        citation.checkouts.filter(
            status=Checkout.Status.OPEN, processor=provider.key, amount=amount, quoted_on=on,
            started_at__gte=timezone.now() - timedelta(minutes=settings.DOGTAG_CHECKOUT_MINUTES - 5),
        ).exclude(url="").order_by("-pk").first()
    )  # fmt: skip
    if reusable:
        return reusable
    description = f"{municipality} citation {citation.pk} — forfeiture for {citation.violation}"
    return _open(provider, municipality, [], amount, ZERO, on, success_url, cancel_url, description,
                 citation=citation)  # fmt: skip


def _open(provider, municipality, items, owed_total, fee, on, success_url, cancel_url, description, *,
          application=None, citation=None) -> Checkout:  # fmt: skip
    with transaction.atomic():
        checkout = Checkout.objects.create(
            municipality=municipality, processor=provider.key, application=application, citation=citation,
            amount=owed_total + fee, convenience_fee=fee, quoted_on=on,
        )  # fmt: skip
        record(acting_user=None, action=Action.CHECKOUT_START, obj=checkout)
        for each, amount in items:
            item = CheckoutItem.objects.create(
                municipality=municipality, checkout=checkout, application=each, amount=amount
            )
            record(acting_user=None, action=Action.CHECKOUT_ADD_ITEM, obj=item)
    try:
        started = provider.start(checkout, success_url=success_url, cancel_url=cancel_url, description=description)
    except (Unreachable, Refused) as e:
        with transaction.atomic():
            before = snapshot(checkout)
            checkout.status, checkout.outcome = Checkout.Status.EXPIRED, str(e)[:500]
            checkout.save()
            record(acting_user=None, action=Action.CHECKOUT_FAIL, obj=checkout, before=before)
        raise ValidationError(
            {"__all__": "The card processor did not answer. Nothing was charged; try again in a few minutes, "
                        "or pay at the clerk's counter."}
        ) from None  # fmt: skip
    with transaction.atomic():
        before = snapshot(checkout)
        checkout.session_id, checkout.url = started.session_id, started.url
        checkout.save()
        record(acting_user=None, action=Action.CHECKOUT_OPEN, obj=checkout, before=before)
    return checkout


def convenience_fee(municipality, on: date) -> Decimal:
    """The card convenience fee the municipality's fee schedule sets for `on` (its own charge,
    licensing/charges.py), or nothing."""
    entry = charge_on(municipality, "card_convenience_fee", on)
    return entry.amount if entry else ZERO


@transaction.atomic
def receive_notification(municipality, processor: str, notice) -> tuple[Notification, bool]:
    """Store a verified notification once by its id and queue its settling; a replay (the same
    id again, even at the same instant) finds the stored one and changes nothing. Refused when
    it names another municipality's checkout."""
    if notice.session_id:
        owner = (
            Checkout.objects.filter(processor=processor, session_id=notice.session_id)
            .values_list("municipality_id", flat=True)
            .first()
        )
        if owner is not None and owner != municipality.pk:
            raise Forged(f"The notification names another municipality's checkout, not {municipality}'s.")
    notification, created = Notification.objects.get_or_create(
        processor=processor,
        event_id=notice.event_id,
        defaults={
            "municipality": municipality,
            "kind": notice.kind,
            "session_id": notice.session_id,
            "occurred_at": notice.occurred_at,
        },
    )
    if not created:
        if notification.municipality_id != municipality.pk:
            raise Forged(f"Event {notice.event_id} was received for another municipality.")
        return notification, False
    record(acting_user=None, action=Action.NOTIFICATION_RECEIVE, obj=notification)
    enqueue(SETTLE, notification.pk, task_name=f"settle {processor} {notice.event_id}")
    return notification, True


def settle(notification_id: int) -> str:
    """The worker's part: re-read the checkout the notification names from the processor and
    settle it. A processor that does not answer raises Unreachable: the task fails and is tried
    again, the notification still waiting. Idempotent: a settled checkout is not settled again."""
    notification = Notification.objects.select_related("municipality").get(pk=notification_id)
    if notification.handled_at:
        return "already handled"
    checkout = (
        Checkout.objects.filter(
            processor=notification.processor,
            session_id=notification.session_id,
            municipality=notification.municipality,
        ).first()
        if notification.session_id
        else None
    )
    if checkout is None or checkout.status != Checkout.Status.OPEN:
        reason = "names no checkout of Dogtag's" if checkout is None else f"checkout already {checkout.status}"
        return _handled(notification_id, None, None, reason)
    provider = for_municipality(notification.municipality, checkout.processor)
    if provider is None:
        raise Unreachable(f"{notification.municipality} no longer has {checkout.processor} connected.")
    reading = provider.reread(checkout)
    return _handled(notification_id, checkout.pk, reading, "")


@transaction.atomic
def _handled(notification_id, checkout_id, reading, reason) -> str:
    notification = Notification.objects.select_for_update().get(pk=notification_id)
    if notification.handled_at:
        return "already handled"
    if checkout_id is not None:
        reason = _settle(checkout_id, reading, notification.occurred_at)
    before = snapshot(notification)
    notification.handled_at, notification.outcome = timezone.now(), reason[:500]
    notification.save()
    record(acting_user=None, action=Action.NOTIFICATION_HANDLE, obj=notification, before=before)
    return reason


def _settle(checkout_id, reading, paid_at: datetime) -> str:
    """Within `_handled`'s transaction: the checkout locked, so of two notifications for one
    payment at the same instant the second finds it settled. `paid_at`: the processor's time
    of the notification, the receipt's time even when the clerk approves days later."""
    on = timezone.localdate(paid_at)
    checkout = Checkout.objects.select_for_update(of=("self",)).select_related("municipality").get(pk=checkout_id)
    if checkout.status != Checkout.Status.OPEN:
        return f"checkout already {checkout.status}"
    before = snapshot(checkout)
    if reading.status == "open":
        return "not paid yet"
    if reading.status == "expired":
        checkout.status, checkout.outcome = Checkout.Status.EXPIRED, "The processor's page expired unpaid."
        checkout.settled_at = timezone.now()
        checkout.save()
        record(acting_user=None, action=Action.CHECKOUT_EXPIRE, obj=checkout, before=before)
        return "expired"
    checkout.reference, checkout.paid_amount, checkout.settled_at = reading.reference, reading.amount, timezone.now()
    items = list(checkout.items.select_related("application"))
    if checkout.citation_id:
        problem = _why_citation_refused(checkout, reading)
    else:
        problem = _why_cart_refused(checkout, reading) if items else _why_refused(checkout, reading, on)
    if problem:
        checkout.status, checkout.outcome = Checkout.Status.REFUSED, problem[:500]
        checkout.save()
        record(acting_user=None, action=Action.CHECKOUT_REFUSE, obj=checkout, before=before)
        _queue_refund(checkout, reading.amount, f"Refused: {problem}"[:300], refund=None)
        return f"refused: {problem}"
    municipality = checkout.municipality
    actor = processor_user(municipality)
    if checkout.citation_id:
        # Recorded through the citation's own action (its audit event, the court date met, the case closed).
        enforcement.record_citation_paid(checkout.citation, acting_user=actor, paid_on=on)
        checkout.status = Checkout.Status.PAID
        checkout.outcome = f"Paid; citation {checkout.citation_id}'s forfeiture recorded paid."
        checkout.save()
        record(acting_user=actor, action=Action.CHECKOUT_PAID, obj=checkout, before=before)
        return checkout.outcome
    if items:
        checkout.outcome = _settle_cart(checkout, items, reading, paid_at, actor)
        checkout.status = Checkout.Status.PAID if checkout.outcome.startswith("Paid") else Checkout.Status.REFUSED
        checkout.save()
        action = Action.CHECKOUT_PAID if checkout.status == Checkout.Status.PAID else Action.CHECKOUT_REFUSE
        record(acting_user=actor, action=action, obj=checkout, before=before)
        return checkout.outcome
    application = portal.record_online_payment(
        checkout.application,
        acting_user=actor,
        amount=reading.amount - checkout.convenience_fee,
        convenience_fee=checkout.convenience_fee,
        reference=reading.reference,
        paid_at=paid_at,
    )
    checkout.status = Checkout.Status.PAID
    if processors.review_first(municipality):
        checkout.outcome = "Paid; waiting for the clerk's review (the municipality's setting)."
    else:
        try:
            with transaction.atomic():
                license = portal.approve_application(application, acting_user=actor, on=on)
        except ValidationError as e:
            checkout.outcome = f"Paid; waiting for the clerk: {' '.join(e.messages)}"[:500]
        else:
            checkout.payment = license.payment
            checkout.outcome = f"Paid; license {license.serial} issued."
    checkout.save()
    record(acting_user=actor, action=Action.CHECKOUT_PAID, obj=checkout, before=before)
    return checkout.outcome


def _why_citation_refused(checkout, reading) -> str:
    if reading.municipality_slug and reading.municipality_slug != checkout.municipality.slug:
        return f"the processor's payment is for {reading.municipality_slug}, not {checkout.municipality.slug}"
    if reading.currency.lower() != checkout.currency:
        return f"paid in {reading.currency.upper()}, not {checkout.currency.upper()}"
    citation = Citation.objects.select_for_update(of=("self",)).get(pk=checkout.citation_id)
    if citation.voided_at or citation.paid_on:
        return "the citation is void" if citation.voided_at else "the citation's forfeiture was already paid"
    if reading.amount != forfeiture_due(citation):
        return f"${reading.amount} was paid but citation {citation.pk} sets ${forfeiture_due(citation)}"
    return ""


def _why_cart_refused(checkout, reading) -> str:
    """Why a cart's payment cannot be accepted at all, or "" (each animal is checked on its own)."""
    if reading.municipality_slug and reading.municipality_slug != checkout.municipality.slug:
        return f"the processor's payment is for {reading.municipality_slug}, not {checkout.municipality.slug}"
    if reading.currency.lower() != checkout.currency:
        return f"paid in {reading.currency.upper()}, not {checkout.currency.upper()}"
    if reading.amount != checkout.amount:
        return f"${reading.amount} was paid but the checkout asked ${checkout.amount}"
    return ""


def _settle_cart(checkout, items, reading, paid_at: datetime, actor) -> str:
    """Within `_settle`'s transaction: each animal checked again against the law on the day it
    was paid; those that pass are paid (the card convenience fee on the first one's receipt)
    and, unless the clerk reviews first, licensed, each in a savepoint of its own. One that no
    longer passes, or whose license cannot be issued, is handled alone: its part refunded
    through the processor, or left paid for the clerk, and the others are not held back."""
    on = timezone.localdate(paid_at)
    paid, refused = [], []
    for item in items:
        application = Application.objects.select_for_update().get(pk=item.application_id)
        form, owed = (None, None)
        waiting = (application.status, application.payment_status) == (
            Application.Status.SUBMITTED,
            Application.PaymentStatus.ONLINE,
        )
        if waiting:
            form, owed = portal.check(application, on)
        if not waiting:
            item.outcome = f"Refunded: the application is {application.get_status_display().lower()}."
        elif not form.is_valid() or owed.refusals:
            item.outcome = "Refunded: the application no longer passes its checks on the day it was paid."
        elif owed.total != item.amount:
            item.outcome = f"Refunded: the law computes ${owed.total} on the day it was paid, not ${item.amount}."
        else:
            fee = checkout.convenience_fee if not paid else ZERO
            paid.append((item, portal.record_online_payment(
                application, acting_user=actor, amount=item.amount, convenience_fee=fee,
                reference=reading.reference, paid_at=paid_at,
            )))  # fmt: skip
            item.outcome = "Paid."
            continue
        refused.append(item)
    if not paid:
        _save_items(items)
        _queue_refund(checkout, reading.amount, "Refused: no animal of the cart could be licensed", refund=None)
        return "refused: no animal of the cart could be licensed"
    if refused:
        amount = sum((item.amount for item in refused), ZERO)
        names = ", ".join(item.application.data.get("animal_name", "") for item in refused)
        _queue_refund(checkout, amount, f"Part of a cart not licensed: {names}"[:300], refund=None)
    issued, owner = 0, None
    for item, application in paid:
        if processors.review_first(checkout.municipality):
            item.outcome = "Paid; waiting for the clerk's review (the municipality's setting)."
            continue
        try:
            with transaction.atomic():
                license = portal.approve_application(application, acting_user=actor, on=on, household=owner)
        except ValidationError as e:
            item.outcome = f"Paid; waiting for the clerk: {' '.join(e.messages)}"[:500]
        else:
            issued += 1
            owner = owner or license.holder
            checkout.payment = checkout.payment or license.payment
            item.outcome = f"Paid; license {license.serial} issued."
    _save_items(items)
    return f"Paid for {len(paid)} of {len(items)}; {issued} licenses issued." + (
        f" {len(refused)} refunded." if refused else ""
    )


def _save_items(items):
    for item in items:
        before = snapshot(CheckoutItem.objects.get(pk=item.pk))
        item.save(update_fields=["outcome"])
        record(acting_user=None, action=Action.CHECKOUT_SETTLE_ITEM, obj=item, before=before)


def _why_refused(checkout, reading, on: date) -> str:
    """Why a payment the processor took cannot be accepted, or "" when it can."""
    if reading.municipality_slug and reading.municipality_slug != checkout.municipality.slug:
        return f"the processor's payment is for {reading.municipality_slug}, not {checkout.municipality.slug}"
    if reading.currency.lower() != checkout.currency:
        return f"paid in {reading.currency.upper()}, not {checkout.currency.upper()}"
    application = Application.objects.select_for_update().get(pk=checkout.application_id)
    if (application.status, application.payment_status) != (
        Application.Status.SUBMITTED,
        Application.PaymentStatus.ONLINE,
    ):
        return (
            f"the application is {application.get_status_display().lower()} "
            f"({application.get_payment_status_display().lower()}), not waiting for this payment"
        )
    form, owed = portal.check(application, on)
    if not form.is_valid() or owed.refusals:
        return "the application no longer passes its checks on the day it was paid"
    if reading.amount != owed.total + checkout.convenience_fee:
        fee = f" and the ${checkout.convenience_fee} card convenience fee" if checkout.convenience_fee else ""
        return (
            f"${reading.amount} was paid but the law computes ${owed.total}{fee} "
            f"for this application on {on.isoformat()}"
        )
    return ""


def _queue_refund(checkout, amount: Decimal, reason: str, *, refund) -> ProcessorRefund:
    sent = ProcessorRefund.objects.create(
        municipality=checkout.municipality, checkout=checkout, refund=refund, amount=amount, reason=reason
    )
    record(acting_user=None, action=Action.PAYMENTS_REFUND_QUEUE, obj=sent)
    enqueue(SEND_REFUND, sent.pk, task_name=f"refund {sent.pk}")
    return sent


def refund_through_processor(refund: Refund) -> ProcessorRefund | None:
    """A card refund the clerk recorded when voiding a license paid online: sent back through the
    processor it was paid with (None when the card was taken at the counter's own terminal).
    Runs inside the void's transaction (payments.signals); the processor is called after commit."""
    if refund.method != Payment.Method.CARD or not refund.payment.card_reference:
        return None
    checkout = Checkout.objects.filter(
        municipality_id=refund.municipality_id, reference=refund.payment.card_reference, status=Checkout.Status.PAID
    ).first()
    if checkout is None:
        return None
    amount = refund.amount
    refunded = sum(r.amount for r in refund.payment.refunds.all())
    if refunded == refund.payment.amount and processors.refunds_convenience_fee(checkout.municipality):
        amount += refund.payment.convenience_fee  # the whole payment handed back: the fee too, as the municipality set
    return _queue_refund(checkout, amount, refund.reason, refund=refund)


def refund_rejected(application) -> ProcessorRefund | None:
    """An application paid online that the clerk rejected on review (the municipality's review
    mode): the payment goes back through the processor, the card convenience fee as the
    municipality set. Runs inside the rejection's transaction; once per checkout, however often
    it is called (and the processor's idempotency key makes sending it again safe)."""
    if application.payment_status != Application.PaymentStatus.PAID or not application.payment_reference:
        return None
    checkout = (
        Checkout.objects.select_for_update()
        .filter(application=application, status=Checkout.Status.PAID, reference=application.payment_reference)
        .first()
    )
    if checkout is None:
        return None
    already = checkout.refunds.filter(refund=None).first()
    if already:
        return already
    amount = checkout.paid_amount or checkout.amount
    if not processors.refunds_convenience_fee(checkout.municipality):
        amount -= checkout.convenience_fee
    reason = f"Application rejected: {application.reject_reason}"[:300]
    return _queue_refund(checkout, amount, reason, refund=None)


def send_refund(processor_refund_id: int) -> str:
    """Ask the processor for the refund; the idempotency key makes asking again safe. A failure
    is kept, shown to the clerk and tried again by the worker, never dropped."""
    sent = ProcessorRefund.objects.select_related("checkout__municipality").get(pk=processor_refund_id)
    if sent.status == ProcessorRefund.Status.SUCCEEDED:
        return "already refunded"
    provider = for_municipality(sent.checkout.municipality, sent.checkout.processor)
    try:
        if provider is None:
            raise Unreachable(f"{sent.checkout.municipality} no longer has {sent.checkout.processor} connected.")
        refund_id = provider.refund(sent.checkout, sent.amount, f"dogtag-refund-{sent.pk}")
    except (Unreachable, Refused) as e:
        _refund_tried(sent.pk, ProcessorRefund.Status.FAILED, error=str(e))
        return f"failed: {e}"
    _refund_tried(sent.pk, ProcessorRefund.Status.SUCCEEDED, refund_id=refund_id)
    return f"refunded: {refund_id}"


@transaction.atomic
def _refund_tried(pk, status, *, error="", refund_id=""):
    sent = ProcessorRefund.objects.select_for_update().get(pk=pk)
    if sent.status == ProcessorRefund.Status.SUCCEEDED:
        return
    before = snapshot(sent)
    sent.status, sent.error, sent.attempts = status, error[:500], sent.attempts + 1
    sent.processor_refund_id = refund_id or sent.processor_refund_id
    sent.last_tried_at = timezone.now()
    sent.save()
    succeeded = status == ProcessorRefund.Status.SUCCEEDED
    action = Action.PAYMENTS_REFUND_SUCCEEDED if succeeded else Action.PAYMENTS_REFUND_FAILED
    record(acting_user=None, action=action, obj=sent, before=before)


@transaction.atomic
def retry_refund(sent: ProcessorRefund, *, acting_user) -> ProcessorRefund:
    """The clerk's "try again" on a failed refund: queued for the worker at once."""
    require_role(acting_user, sent.municipality_id, licensing.CLERKS)
    sent = ProcessorRefund.objects.select_for_update().get(pk=sent.pk)
    if sent.status == ProcessorRefund.Status.SUCCEEDED:
        raise ValidationError({"__all__": "This refund has already gone through."})
    before = snapshot(sent)
    sent.status, sent.attempts = ProcessorRefund.Status.PENDING, 0
    sent.save()
    record(acting_user=acting_user, action=Action.PAYMENTS_REFUND_RETRY, obj=sent, before=before)
    enqueue(SEND_REFUND, sent.pk, task_name=f"refund {sent.pk}")
    return sent


def retry_waiting(now=None) -> str:
    """The worker's sweep: notifications not settled after a few minutes (the processor did not
    answer) and failed refunds under the attempt limit, tried again."""
    now = now or timezone.now()
    settled = refunded = 0
    for pk in Notification.objects.filter(handled_at=None, received_at__lt=now - timedelta(minutes=5)).values_list(
        "pk", flat=True
    ):
        try:
            settle(pk)
            settled += 1
        except Unreachable:
            pass
    waiting = ProcessorRefund.objects.filter(
        status__in=[ProcessorRefund.Status.FAILED, ProcessorRefund.Status.PENDING],
        attempts__lt=settings.DOGTAG_REFUND_ATTEMPTS,
        created_at__lt=now - timedelta(minutes=5),
    )
    for pk in waiting.values_list("pk", flat=True):
        refunded += send_refund(pk).startswith("refunded")
    return f"{settled} notifications settled, {refunded} refunds sent"


def reconcile(municipality, day: date) -> Reconciliation:
    """Compare the processor's charges and refunds of `day` (the municipality's local day) with
    Dogtag's receipts, and keep every difference for the clerk."""
    from dogtag.payments.reconcile import differences

    provider = for_municipality(municipality)
    if provider is None:
        raise ValidationError({"__all__": f"{municipality} has no card processor connected."})
    movements = provider.activity(day)
    found = differences(municipality, provider.key, day, movements)
    with transaction.atomic():
        current = (
            Reconciliation.objects.select_for_update()
            .filter(municipality=municipality, processor=provider.key, day=day)
            .first()
        )
        before = snapshot(current) if current else None
        current = current or Reconciliation(municipality=municipality, processor=provider.key, day=day)
        current.ran_at = timezone.now()
        current.charges = sum(m.kind == "charge" for m in movements)
        current.refunds = sum(m.kind == "refund" for m in movements)
        current.differences = found
        current.save()
        record(acting_user=None, action=Action.PAYMENTS_RECONCILE, obj=current, before=before)
    return current


def day_bounds(day: date) -> tuple[datetime, datetime]:
    zone = timezone.get_default_timezone()
    start = datetime.combine(day, time(), zone)
    return start, start + timedelta(days=1)
