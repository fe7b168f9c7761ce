"""A license's writes in one statement on PostgreSQL (issue 12: eight clerks at once).

Every issue moves the year's receipt counter on, and that row holds the other clerks until the
issue commits. Written row by row (the counter, the payment, its audit event, the license, its
tag, its audit event) the counter was held for six round trips and the Python between them; here
the tag is taken first (SKIP LOCKED: no clerk waits for another's) and the rest is one statement
of data-modifying CTEs right before the commit:

    WITH c AS (the counter moved on, or the year's first: INSERT ... ON CONFLICT DO UPDATE),
         p AS (INSERT the payment, numbered from c), l AS (INSERT the license, paid by p),
         t AS (UPDATE the tag to l), a AS (INSERT both audit events, with p's and l's ids)
    SELECT p's id and receipt number, l's id

The rows are the ones the other databases write one at a time (actions `issue_license`): the
columns are the models' own, their values prepared by the fields, and the audit events are built
by `audit.record.event` with the ids the statement gives them (`after` is jsonb, so the ids
merged into it read exactly as the snapshot would have). The statement is written once for each
shape (with or without a payment) and sent as a prepared statement (lib/prepared.py).
tests/licensing/test_issue_writes.py checks, on both databases, each row against the object
returned and each audit event against the snapshot of its row as stored.
"""

from django.db import DEFAULT_DB_ALIAS, connections

from dogtag.audit.models import AuditEvent
from dogtag.lib import prepared
from dogtag.licensing.models import License, Payment, ReceiptCounter, Tag


def _row(connection, model, overrides: dict[str, str]) -> tuple[list[str], str, list]:
    """(columns, VALUES row, the fields whose values are its parameters) of a new row of `model`,
    as `save()` would insert it; `overrides` gives SQL for columns (by attname) whose value another
    CTE makes or completes (`{value}` in it: the field's own value, as a parameter)."""
    meta = model._meta
    columns, values, fields = [], [], []
    for f in meta.local_concrete_fields:
        if f.generated or f is meta.auto_field:
            continue
        columns.append(connection.ops.quote_name(f.column))
        sql = overrides.get(f.attname, "{value}")
        if "{value}" in sql:
            fields.append(f)
        values.append(sql.replace("{value}", "%s"))
    return columns, f"({', '.join(values)})", fields


def _table(connection, model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _statement(connection, paid: bool, event_types: tuple[str, ...]) -> tuple[str, list]:
    """The statement for an issue with or without a payment and with these audit events, written
    with PostgreSQL's `$1` placeholders, and its parameters in order as (row, fields): the row is
    "paid", "license", "tag" or the audit event's position in `events`."""
    qn = connection.ops.quote_name
    ctes, order = [], []
    if paid:
        payments = _table(connection, Payment)
        ctes.append(
            f"c AS (INSERT INTO {_table(connection, ReceiptCounter)} (municipality_id, {qn('year')}, {qn('last')}) "
            f"VALUES (%s, %s, (SELECT COALESCE(MAX(receipt_serial), 0) + 1 FROM {payments} "
            "WHERE municipality_id = %s AND receipt_year = %s)) "
            f"ON CONFLICT (municipality_id, {qn('year')}) DO UPDATE SET {qn('last')} = "
            f"{_table(connection, ReceiptCounter)}.{qn('last')} + 1 RETURNING {qn('last')})"
        )
        municipality, year = Payment._meta.get_field("municipality"), Payment._meta.get_field("receipt_year")
        order.append(("paid", [municipality, year, municipality, year]))
        columns, row, fields = _row(connection, Payment, {"receipt_serial": f"(SELECT {qn('last')} FROM c)"})
        ctes.append(f"p AS (INSERT INTO {payments} ({', '.join(columns)}) VALUES {row} RETURNING id, receipt_serial)")
        order.append(("paid", fields))
    columns, row, fields = _row(connection, License, {"payment_id": "(SELECT id FROM p)"} if paid else {})
    ctes.append(f"l AS (INSERT INTO {_table(connection, License)} ({', '.join(columns)}) VALUES {row} RETURNING id)")
    order.append(("license", fields))
    ctes.append(f"t AS (UPDATE {_table(connection, Tag)} SET license_id = (SELECT id FROM l) WHERE id = %s)")
    order.append(("tag", [Tag._meta.pk]))
    ids = {
        "licensing.payment": "(SELECT jsonb_build_object('id', id, 'receipt_serial', receipt_serial) FROM p)",
        "licensing.license": "(SELECT jsonb_build_object('id', l.id, 'payment', "
        + ("(SELECT id FROM p)" if paid else "NULL")
        + ") FROM l)",
    }
    rows = []
    for i, object_type in enumerate(event_types):
        source = "p" if object_type == "licensing.payment" else "l"
        columns, row, fields = _row(
            connection,
            AuditEvent,
            {"object_id": f"(SELECT id::text FROM {source})", "after": f"{{value}}::jsonb || {ids[object_type]}"},
        )
        rows.append(row)
        order.append((i, fields))
    ctes.append(f"a AS (INSERT INTO {_table(connection, AuditEvent)} ({', '.join(columns)}) VALUES {', '.join(rows)})")
    payment_columns = "(SELECT id FROM p), (SELECT receipt_serial FROM p)" if paid else "NULL, NULL"
    return prepared.numbered(f"WITH {', '.join(ctes)} SELECT {payment_columns}, (SELECT id FROM l)"), order


_statements: dict[tuple, tuple[str, list]] = {}  # by shape; made twice at worst, the same both times


def write(*, license: License, tag: Tag, paid: Payment | None, events: list[AuditEvent]) -> None:
    """Insert `paid` (numbered), `license` (paid by it), link `tag` to it and insert `events`
    (the payment's, then the license's; `audit.record.event`), giving each its id."""
    # The connection itself, not django.db.connection's per-thread proxy: each field's value is
    # prepared with it, and every attribute read through the proxy costs a thread-local lookup.
    connection = connections[DEFAULT_DB_ALIAS]
    shape = (connection.alias, paid is not None, tuple(event.object_type for event in events))
    if shape not in _statements:
        _statements[shape] = _statement(connection, *shape[1:])
    sql, order = _statements[shape]
    rows = {"paid": paid, "license": license, "tag": tag, **dict(enumerate(events))}
    params = [f.get_db_prep_save(f.pre_save(rows[row], True), connection) for row, fields in order for f in fields]
    cursor = prepared.cursor(connection, raw=True)
    cursor.execute(sql, params)
    payment_id, receipt_serial, license_id = cursor.fetchone()
    if paid is not None:
        paid.pk, paid.receipt_serial = payment_id, receipt_serial
        paid._state.adding, paid._state.db = False, connection.alias
        license.payment = paid
    license.pk = license_id
    license._state.adding, license._state.db = False, connection.alias
