"""The clerk's licensing actions: one transaction each, the amounts from the rule engine, one
audit event per record written (DESIGN.md, layer rule 2)."""

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Max, Sum
from django.utils import timezone

from dogtag.accounts.models import Role
from dogtag.accounts.scope import require_role
from dogtag.audit.record import record, save_and_record, snapshot
from dogtag.lib.compiled import DATE_MARKERS, INT_MARKERS, Compiled, insert, set_prefetched
from dogtag.lib.dates import shown
from dogtag.lib.tasks import enqueue, enqueue_many
from dogtag.licensing import law
from dogtag.licensing.actions.tags import take_tag
from dogtag.licensing.charges import CHARGES, charge_on
from dogtag.licensing.models import FeeScheduleEntry, License, Payment, ReceiptCounter, Refund, Tag, TagLot
from dogtag.licensing.owed import what_is_owed
from dogtag.registry.models import Ownership, today
from dogtag.rules.decision import ZERO, citations_json
from dogtag.rules.delegations import delegated_amounts
from dogtag.rules.limits import state_limits

CLERKS = (Role.CLERK, Role.ADMINISTRATOR)
MAX_LOT = 100_000


@transaction.atomic
def set_fee(*, acting_user, municipality, key: str, amount: Decimal, effective_on: date, authority: str):
    """Set a delegated amount from a date; earlier values stay, so past licenses keep their fee."""
    require_role(acting_user, municipality.pk, CLERKS)
    pack = law.pack_of(municipality)
    delegated = delegated_amounts(pack)
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
        # amounts from its effective date, not those before it (issue 25 §3).
        refused := state_limits(
            law.pack_of(municipality, effective_on), key, amount, effective_on, _in_force(municipality, on=effective_on)
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
            {"effective_on": f"{key} already has an amount from {shown(effective_on)}; void it first."}
        )
    entry = FeeScheduleEntry(
        municipality=municipality,
        key=key,
        amount=amount,
        effective_on=effective_on,
        authority=authority,
        created_by=acting_user,
    )
    return save_and_record(entry, acting_user=acting_user, action="fee.set")


def _in_force(municipality, *, on: date) -> dict[str, Decimal]:
    """The fee schedule's amounts in force on `on`, by key."""
    entries = FeeScheduleEntry.objects.filter(municipality=municipality, voided_at=None, effective_on__lte=on)
    found: dict[str, Decimal] = {}
    for key, amount in entries.order_by("key", "-effective_on").values_list("key", "amount"):
        found.setdefault(key, amount)
    return found


@transaction.atomic
def void_fee(entry, *, acting_user, reason: str):
    require_role(acting_user, entry.municipality_id, CLERKS)
    if not reason.strip():
        raise ValidationError({"reason": "Say why this amount is void."})
    before = snapshot(entry)
    entry.voided_at, entry.void_reason = timezone.now(), reason
    return save_and_record(entry, acting_user=acting_user, action="fee.void", before=before)


@transaction.atomic
def receive_tag_lot(
    *,
    acting_user,
    municipality,
    license_year: int,
    first_serial: int,
    last_serial: int,
    received_on: date | None = None,
) -> TagLot:
    require_role(acting_user, municipality.pk, CLERKS)
    if last_serial < first_serial:
        raise ValidationError({"last_serial": f"The last serial {last_serial} is below the first {first_serial}."})
    if last_serial - first_serial + 1 > MAX_LOT:
        raise ValidationError({"last_serial": f"A lot holds at most {MAX_LOT:,} tags."})
    clash = TagLot.objects.filter(
        municipality=municipality,
        license_year=license_year,
        first_serial__lte=last_serial,
        last_serial__gte=first_serial,
    ).first()
    if clash:
        raise ValidationError({"first_serial": f"Serials overlap the lot already received: {clash}."})
    lot = save_and_record(
        TagLot(
            municipality=municipality,
            license_year=license_year,
            first_serial=first_serial,
            last_serial=last_serial,
            received_on=received_on or today(),
            received_by=acting_user,
        ),
        acting_user=acting_user,
        action="tags.receive",
    )
    Tag.objects.bulk_create(
        [
            Tag(municipality=municipality, lot=lot, license_year=license_year, serial=s)
            for s in range(first_serial, last_serial + 1)
        ],
        batch_size=2000,
    )
    return lot


def record_payment(
    *, acting_user, municipality, payer, due: Decimal, payment: dict | None, what: str = "license"
) -> Payment | None:
    """The whole amount due, received by cash, check or card (nothing when nothing is due);
    refused, naming the field, otherwise. Called inside the caller's transaction."""
    paid = _payment_of(
        acting_user=acting_user, municipality=municipality, payer=payer, due=due, payment=payment, what=what
    )
    if paid is not None:
        _numbered(paid)
        record(acting_user=acting_user, action="payment.record", obj=paid)
    return paid


def _payment_of(*, acting_user, municipality, payer, due: Decimal, payment: dict | None, what: str):
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
    return Payment(
        municipality=municipality,
        payer=payer,
        amount=amount,
        method=method,
        check_number=payment.get("check_number") or "",
        card_reference=payment.get("card_reference") or "",
        received_by=acting_user,
        receipt_year=today().year,
    )


def _numbered(payment: Payment) -> None:
    """The next receipt number of the municipality's year, taken from its counter row."""
    scope = {"municipality": payment.municipality, "year": payment.receipt_year}
    serial = _count_on(payment.municipality, payment.receipt_year)
    if serial is None:  # the year's first receipt
        given = Payment.objects.filter(municipality=payment.municipality, receipt_year=payment.receipt_year)
        last = given.aggregate(n=Max("receipt_serial"))["n"] or 0
        ReceiptCounter.objects.get_or_create(**scope, defaults={"last": last})
        serial = _count_on(payment.municipality, payment.receipt_year)
    payment.receipt_serial = serial
    insert(payment)


def _count_on(municipality, year: int) -> int | None:
    """The counter row moved on by one and its new value, in one statement (UPDATE ... RETURNING,
    PostgreSQL and SQLite alike); None when the year has no counter yet."""
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {qn(ReceiptCounter._meta.db_table)} SET {qn('last')} = {qn('last')} + 1 "
            f"WHERE municipality_id = %s AND {qn('year')} = %s RETURNING {qn('last')}",
            [municipality.pk, year],
        )
        row = cursor.fetchone()
    return None if row is None else row[0]


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
        owed = what_is_owed(animal, on, license_year)
    if owed.refusals:
        errors = {}
        for refusal in owed.refusals:
            errors.setdefault(refusal.field, []).append(refusal.message)
        raise ValidationError(errors)
    owner = next((o.person for o in _CURRENT_OWNERS.objects(animal_id=animal.pk, on=on)), None)
    if owner is None:
        raise ValidationError({"owner": f"{animal.name} has no current owner on record."})
    paid = _payment_of(
        acting_user=acting_user,
        municipality=animal.municipality,
        payer=owner,
        due=owed.total,
        payment=payment,
        what="license",
    )
    # The tag first: taking it waits for no other clerk, while the receipt number holds the
    # others until the issue commits, so it is taken last.
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
        species=animal.species,
        sex=animal.sex,
        altered=animal.altered,
        breed=animal.breed,
        color=animal.color,
        county=animal.municipality.county,
        citations=citations_json(owed.citations()),
    )
    try:
        # No savepoint of its own: a duplicate refused here rolls back the whole action (its own
        # savepoint when called inside another transaction).
        if paid is not None:
            _numbered(paid)
            record(acting_user=acting_user, action="payment.record", obj=paid)
        insert(license)
        _tag_to(tag, license)
        record(acting_user=acting_user, action="license.issue", obj=license)
    except IntegrityError:
        raise ValidationError(
            {"license": f"A {owed.license_year} license for {animal.name} was issued a moment ago."}
        ) from None
    _known_tags(license, [tag])
    return license


# The issue's statements, compiled once (lib/compiled.py): it is the counter's busiest write.
_CURRENT_OWNERS = Compiled(
    lambda animal_id, on: Ownership.objects.current(on).filter(animal_id=animal_id).select_related("person"),
    animal_id=INT_MARKERS[0],
    on=DATE_MARKERS[0],
)  # Animal.current_owners(on)


def _known_tags(license, tags) -> None:
    """`license.tags.all()` answered without a query: a license just issued has the tag it took."""
    for tag in tags:
        tag.license = license
    set_prefetched(license, "tags", tags)


def _tag_to(tag, license) -> None:
    """`Tag.objects.filter(pk=tag.pk).update(license=license)`, in SQL written once."""
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {qn(Tag._meta.db_table)} SET {qn('license_id')} = %s WHERE {qn('id')} = %s", [license.pk, tag.pk]
        )


@transaction.atomic
def void_license(license, *, acting_user, reason: str, refund: dict | None = None) -> License:
    """Void a license issued in error; its tag is retired (never reissued) and stays on record.
    Its payment is either handed back (`refund`: method, amount, check number; a Refund in the
    day's close of today) or, with no refund, was itself taken in error and is voided with it.
    Either way the voided license's money no longer counts as received."""
    refund = {k: v for k, v in (refund or {}).items() if v not in (None, "")}
    payment = license.payment
    if refund and payment is None:
        raise ValidationError(
            {"refund_amount": f"Nothing was paid for license {license.serial}; there is nothing to refund."}
        )
    if refund and payment is not None:
        refund = _refund_fields(payment, refund)
    voided = _void(license, acting_user=acting_user, reason=reason, roles=CLERKS, action="license.void")
    if payment is None or payment.voided_at:
        return voided
    if refund:
        save_and_record(
            Refund(municipality=license.municipality, payment=payment, license=license, reason=reason,
                   refunded_by=acting_user, **refund),
            acting_user=acting_user,
            action="payment.refund",
        )  # fmt: skip
    elif not payment.licenses.filter(voided_at=None).exists() and not payment.refunds.exists():
        before = snapshot(payment)
        payment.voided_at, payment.void_reason = timezone.now(), f"License {license.serial} voided: {reason}"
        save_and_record(payment, acting_user=acting_user, action="payment.void", before=before)
    return voided


def _refund_fields(payment, refund: dict) -> dict:
    errors = {}
    try:
        amount = Decimal(str(refund.get("amount") or "0"))
    except ArithmeticError:
        amount = Decimal("-1")
    refunded = payment.refunds.aggregate(total=Sum("amount"))["total"] or ZERO
    left = payment.amount - refunded
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
    roles = CLERKS + (Role.OFFICER,)
    return _void(license, acting_user=acting_user, reason=reason, roles=roles, action="license.revoke")


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
    tag = take_tag(license.municipality, license.license_year, tag_serial)
    Tag.objects.filter(pk=tag.pk).update(license=license, replacement_payment=paid)
    tag.license, tag.replacement_payment = license, paid
    record(acting_user=acting_user, action="license.replace_tag", obj=license, before=before)
    return tag


# The renewal run (licensing/renewals.py reads and prints; these write).

RENDER_CHUNK = "dogtag.licensing.tasks.print_renewal_chunk"
MERGE_RUN = "dogtag.licensing.tasks.merge_renewal_run"


@transaction.atomic
def start_renewal_run(*, acting_user, municipality, license_year: int):
    """Commit a notice for every animal due one, in one INSERT ... SELECT, and the run's chunks;
    the worker prints the chunks (and emails the owners) after commit. Idempotent: a second run
    adds notices only for animals that became due since."""
    from django.conf import settings
    from django.db import connection

    from dogtag.licensing import renewals
    from dogtag.licensing.models import RenewalChunk, RenewalNotice, RenewalRun
    from dogtag.registry.models import Municipality

    if acting_user is not None:
        require_role(acting_user, municipality.pk, CLERKS)
    # One run at a time per municipality: a second waits here, then finds the first one's notices.
    Municipality.objects.select_for_update().filter(pk=municipality.pk).first()
    now = timezone.now()
    size = settings.DOGTAG_RENEWAL_CHUNK_SIZE
    run = RenewalRun.objects.create(
        municipality=municipality, license_year=license_year, started_by=acting_user, chunk_size=size
    )
    sql, params = renewals.notice_insert(municipality, license_year, timezone.localdate(), run.pk, now)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        created = cursor.rowcount
    emailed = RenewalNotice.objects.filter(run=run, emailed=True).count()
    chunks = RenewalChunk.objects.bulk_create(
        RenewalChunk(
            municipality=municipality,
            run=run,
            number=n + 1,
            first_sequence=n * size + 1,
            last_sequence=min((n + 1) * size, created),
        )
        for n in range((created + size - 1) // size)
    )
    run.notices_created, run.emails_queued, run.chunks_total = created, emailed, len(chunks)
    if not chunks:
        run.finished_at = now
    run.save()
    record(acting_user=acting_user, action="renewals.run", obj=run)
    enqueue_many(
        RENDER_CHUNK,
        [((chunk.pk,), f"renewal run {run.pk} part {chunk.number}") for chunk in chunks],
        group=f"renewals-{run.pk}",
    )
    return run


def print_renewal_chunk(chunk_id: int) -> str:
    """The worker's part of a run: one chunk's PDF and its emails. Safe to run again after a
    crash: the PDF goes to the same name, and the emails and the chunk's "done" commit together,
    so a chunk is done once, with its emails once."""
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage

    from dogtag.licensing import renewal_notice_pdf, renewals
    from dogtag.licensing.models import RenewalChunk, RenewalRun
    from dogtag.outbox import mail

    chunk = RenewalChunk.objects.select_related("run__municipality").get(pk=chunk_id)
    if chunk.done_at:
        _merge_when_printed(chunk.run_id)
        return "already printed"
    run, municipality = chunk.run, chunk.run.municipality
    rows = renewals.chunk_rows(municipality, run.license_year, renewals.chunk_notices(chunk))
    pdf = renewal_notice_pdf.draw(municipality, run.license_year, rows)
    name = renewals.chunk_name(chunk)
    if default_storage.exists(name):  # left by a run of this chunk that did not commit
        default_storage.delete(name)
    saved = default_storage.save(name, ContentFile(pdf))
    messages = renewals.emails(municipality, run.license_year, rows)
    with transaction.atomic():
        RenewalRun.objects.select_for_update().filter(pk=run.pk).first()  # finishers one at a time
        locked = RenewalChunk.objects.get(pk=chunk_id)
        if locked.done_at:
            return "already printed"
        mail.queue_many(messages)
        locked.pdf, locked.emails_queued, locked.done_at = saved, len(messages), timezone.now()
        locked.save(update_fields=["pdf", "emails_queued", "done_at"])
        record(acting_user=None, action="renewals.chunk_printed", obj=locked)
        _merge_when_printed(run.pk)
    return f"{len(rows)} notices printed, {len(messages)} emails queued"


def _merge_when_printed(run_id: int) -> None:
    from dogtag.licensing.models import RenewalChunk, RenewalRun

    if (
        RenewalRun.objects.filter(pk=run_id, finished_at=None).exists()
        and not RenewalChunk.objects.filter(run_id=run_id, done_at=None).exists()
    ):
        enqueue(MERGE_RUN, run_id, task_name=f"renewal run {run_id} merge")


def merge_renewal_run(run_id: int) -> str:
    """One PDF of the whole run from its chunks, for a clerk who prints everything at once."""
    from django.core.files.base import File
    from django.core.files.storage import default_storage

    from dogtag.lib.pdf import concatenate
    from dogtag.licensing import renewals
    from dogtag.licensing.models import RenewalRun

    run = RenewalRun.objects.select_related("municipality").get(pk=run_id)
    if run.finished_at:
        return "already merged"
    chunks = list(run.chunks.order_by("number"))
    if any(c.done_at is None for c in chunks):
        return "not every chunk is printed yet"
    import tempfile

    def parts():  # one part open at a time: the merge's memory is a part's, at any batch size
        for c in chunks:
            with default_storage.open(c.pdf, "rb") as f:
                yield f

    with tempfile.TemporaryFile() as out:
        concatenate(parts(), out)
        out.seek(0)
        name = renewals.merged_name(run)
        if default_storage.exists(name):
            default_storage.delete(name)
        saved = default_storage.save(name, File(out))
    with transaction.atomic():
        locked = RenewalRun.objects.select_for_update().get(pk=run_id)
        if locked.finished_at:
            return "already merged"
        locked.pdf, locked.finished_at = saved, timezone.now()
        locked.save(update_fields=["pdf", "finished_at"])
        record(acting_user=None, action="renewals.merged", obj=locked)
    return f"{len(chunks)} parts merged"


@transaction.atomic
def store_tag_return_list(*, municipality, license_year: int, on):
    """Store the year's list of tags to return (s. 174.07(3)(b)) once; None if already stored or
    the municipality's law sets no return date. The worker calls it on its schedule."""
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage

    from dogtag.lib.pdf import render_pdf
    from dogtag.licensing.models import TagReturnList

    if TagReturnList.objects.filter(municipality=municipality, license_year=license_year).exists():
        return None
    expiry = law.ask(municipality, "license_expiry", {"issued_on": on, "license_year": license_year}, on, {})
    return_by = expiry.value.unused_tags_return_by
    if return_by is None:
        return None
    tags = list(
        Tag.objects.filter(municipality=municipality, license_year=license_year)
        .exclude(status=Tag.Status.ISSUED)
        .order_by("status", "serial")
    )
    pdf = render_pdf(
        "licensing/tag_return_list.html",
        {
            "municipality": municipality,
            "year": license_year,
            "tags": tags,
            "return_by": return_by,
            "made_on": on,
            "citations": expiry.citations,
        },
    )
    name = f"tag-returns/{municipality.slug}-{license_year}.pdf"
    if default_storage.exists(name):  # left by a run that did not commit
        default_storage.delete(name)
    stored = TagReturnList.objects.create(
        municipality=municipality,
        license_year=license_year,
        return_by=return_by,
        tags=len(tags),
        pdf=default_storage.save(name, ContentFile(pdf)),
    )
    record(acting_user=None, action="tags.return_list_stored", obj=stored)
    return stored
