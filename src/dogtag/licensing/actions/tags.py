"""The tag stock: a lot received from the county clerk, and a tag taken from it. A tag is issued
once: the claim is a conditional UPDATE (status in-stock -> issued) that only one transaction can
win, on SQLite and PostgreSQL. SQLite serialises writers (IMMEDIATE transactions); PostgreSQL
clerks each lock only the tag they take (SKIP LOCKED), so two counters never wait on each other's
row."""

from datetime import date

from django.core.exceptions import ValidationError
from django.db import connection, transaction

from dogtag.accounts.scope import require_role
from dogtag.audit.record import save_and_record
from dogtag.licensing.actions.roles import CLERKS
from dogtag.licensing.models import Tag, TagLot
from dogtag.registry.models import today


def _claim(tag) -> bool:
    if Tag.objects.filter(pk=tag.pk, status=Tag.Status.IN_STOCK).update(status=Tag.Status.ISSUED):
        tag.status = Tag.Status.ISSUED
        return True
    return False


def _next_in_stock(stock):
    ordered = stock.order_by("serial")
    if connection.features.has_select_for_update_skip_locked:
        # Every unlocked tag may be gone; then wait for a locked one in case its clerk rolls back.
        return ordered.select_for_update(skip_locked=True).first() or ordered.select_for_update().first()
    return ordered.first()


def _claim_next_unlocked(municipality, license_year: int) -> Tag | None:
    """PostgreSQL: the next tag in stock no other clerk holds, locked and claimed in one statement."""
    qn = connection.ops.quote_name
    table = qn(Tag._meta.db_table)
    fields = [f.attname for f in Tag._meta.concrete_fields]
    sql = (
        f"UPDATE {table} SET status = %s WHERE id = (SELECT id FROM {table} WHERE municipality_id = %s "
        "AND license_year = %s AND status = %s ORDER BY serial LIMIT 1 FOR UPDATE SKIP LOCKED) "
        f"RETURNING {', '.join(qn(Tag._meta.get_field(f).column) for f in fields)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [Tag.Status.ISSUED, municipality.pk, license_year, Tag.Status.IN_STOCK])
        row = cursor.fetchone()
    return None if row is None else Tag.from_db(connection.alias, fields, row)


def take_tag(municipality, license_year: int, serial: int | None = None) -> Tag:
    skip_locked = connection.features.has_select_for_update_skip_locked
    if serial is None and skip_locked and (tag := _claim_next_unlocked(municipality, license_year)) is not None:
        return tag
    stock = Tag.objects.filter(municipality=municipality, license_year=license_year, status=Tag.Status.IN_STOCK)
    if serial is not None:
        tag = stock.filter(serial=serial).first()
        if tag is None:
            known = Tag.objects.filter(municipality=municipality, license_year=license_year, serial=serial).first()
            reason = (
                f"it was {known.get_status_display().lower()}"
                if known
                else f"no {license_year} lot received from the county clerk includes it (record the lot on Tag stock)"
            )
            raise ValidationError({"tag_serial": f"Tag {serial} for {license_year} cannot be issued: {reason}."})
        if not _claim(tag):
            raise ValidationError({"tag_serial": f"Tag {serial} was issued a moment ago by another clerk."})
        return tag
    while (tag := _next_in_stock(stock)) is not None:
        if _claim(tag):
            return tag
    raise ValidationError(
        {"tag_serial": f"No {license_year} tags are left in stock: record the lot received from the county clerk."}
    )


MAX_LOT = 100_000


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
