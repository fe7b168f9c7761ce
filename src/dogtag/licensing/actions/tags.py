"""The tag stock: a lot received from the county clerk, and a tag taken from it. A tag is issued
once: the claim is a conditional UPDATE (status in-stock -> issued) that only one transaction can
win, on SQLite and PostgreSQL. The next tag is the first in stock after the year's counter
(`TagCounter`), read from the stock's index at that serial, so its cost does not grow with the
tags already issued. Clerks issuing at once do not wait for each other's tags: on PostgreSQL the
claim passes over a tag another clerk's issue holds (SKIP LOCKED). The counter is moved on by
`move_counter_to`, which a caller runs just before its receipt number and audit events: the
counter's row is held until the issue commits, as the receipt counter's is, so there the issues
go one at a time (one order of locks for every action: tag counter, receipt counter, audit)."""

from datetime import date

from django.core.exceptions import ValidationError
from django.db import connection, transaction

from dogtag.accounts.scope import require_role
from dogtag.audit.action_names import Action
from dogtag.audit.record import save_and_record
from dogtag.licensing.actions.roles import CLERKS
from dogtag.licensing.models import Tag, TagCounter, TagLot
from dogtag.registry.models import today


def move_counter_to(tag: Tag) -> None:
    """The year's counter set to `tag`, taken in turn from stock (made on the year's first tag)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(TagCounter._meta.db_table)} SET last_serial = %s "
            "WHERE municipality_id = %s AND license_year = %s",
            [tag.serial, tag.municipality_id, tag.license_year],
        )
        if cursor.rowcount:
            return
    _, made = TagCounter.objects.get_or_create(
        municipality_id=tag.municipality_id, license_year=tag.license_year, defaults={"last_serial": tag.serial}
    )
    if not made:
        move_counter_to(tag)


def _claim(municipality, license_year: int, *, in_turn: bool, wait: bool = False) -> Tag | None:
    """The first tag in stock (`in_turn`: after the counter's serial), claimed in one statement;
    one another clerk's issue holds is passed over unless `wait`."""
    qn = connection.ops.quote_name
    table = qn(Tag._meta.db_table)
    fields = [f.attname for f in Tag._meta.concrete_fields]
    after = (
        f"(SELECT COALESCE(MAX(last_serial), 0) FROM {qn(TagCounter._meta.db_table)} "
        "WHERE municipality_id = %s AND license_year = %s)"
        if in_turn
        else "-1"  # a serial 0 is a serial too
    )
    skip = " FOR UPDATE SKIP LOCKED" if connection.features.has_select_for_update_skip_locked and not wait else ""
    sql = (
        f"UPDATE {table} SET status = %s WHERE status = %s AND id = (SELECT id FROM {table} "
        f"WHERE municipality_id = %s AND license_year = %s AND status = %s AND serial > {after} "
        f"ORDER BY serial LIMIT 1{skip}) RETURNING {', '.join(qn(Tag._meta.get_field(f).column) for f in fields)}"
    )
    in_stock, year = Tag.Status.IN_STOCK, [municipality.pk, license_year]
    with connection.cursor() as cursor:
        cursor.execute(sql, [Tag.Status.ISSUED, in_stock, *year, in_stock, *(year if in_turn else [])])
        row = cursor.fetchone()
    return None if row is None else Tag.from_db(connection.alias, fields, row)


def _next_in_stock(municipality, license_year: int) -> Tag:
    """The next tag after the counter's; below it only when none is left above (a tag picked by
    serial out of turn, or a lot received below the ones in use); refused when the stock is empty.
    When every tag left is held by other clerks' issues, it waits for them."""
    stock = Tag.objects.filter(municipality=municipality, license_year=license_year, status=Tag.Status.IN_STOCK)
    while True:
        tag = _claim(municipality, license_year, in_turn=True) or _claim(municipality, license_year, in_turn=False)
        if tag is None and not stock.exists():
            left = f"No {license_year} tags are left in stock: record the lot received from the county clerk."
            raise ValidationError({"tag_serial": left})
        # None: every tag left is held by other clerks' issues; wait for one (issued by them: look again).
        tag = tag or _claim(municipality, license_year, in_turn=False, wait=True)
        if tag is not None:
            return tag


def take_tag(municipality, license_year: int, serial: int | None = None) -> Tag:
    if serial is None:
        return _next_in_stock(municipality, license_year)
    tag = Tag.objects.filter(municipality=municipality, license_year=license_year, serial=serial).first()
    if tag is None or tag.status != Tag.Status.IN_STOCK:
        reason = (
            f"it was {tag.get_status_display().lower()}"
            if tag
            else f"no {license_year} lot received from the county clerk includes it (record the lot on Tag stock)"
        )
        raise ValidationError({"tag_serial": f"Tag {serial} for {license_year} cannot be issued: {reason}."})
    if not Tag.objects.filter(pk=tag.pk, status=Tag.Status.IN_STOCK).update(status=Tag.Status.ISSUED):
        raise ValidationError({"tag_serial": f"Tag {serial} was issued a moment ago by another clerk."})
    tag.status = Tag.Status.ISSUED
    return tag


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
    if clash := TagLot.objects.filter(
        municipality=municipality,
        license_year=license_year,
        first_serial__lte=last_serial,
        last_serial__gte=first_serial,
    ).first():
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
        action=Action.TAGS_RECEIVE,
    )
    Tag.objects.bulk_create(
        [
            Tag(municipality=municipality, lot=lot, license_year=license_year, serial=s)
            for s in range(first_serial, last_serial + 1)
        ],
        batch_size=2000,
    )
    return lot
