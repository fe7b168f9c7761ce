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
merged into it read exactly as the snapshot would have). tests/licensing/test_issue_writes.py
checks, on both databases, each row against the object returned and each audit event against the
snapshot of its row as stored.
"""

from django.db import DEFAULT_DB_ALIAS, connections

from dogtag.audit.models import AuditEvent
from dogtag.licensing.models import License, Payment, ReceiptCounter, Tag


def _row(connection, obj, overrides: dict[str, str]) -> tuple[list[str], str, list]:
    """(columns, VALUES row, parameters) of a new row of `obj`, as `save()` would insert it;
    `overrides` gives SQL for columns (by attname) whose value another CTE makes or completes
    (`{value}` in it: the field's own value, as a parameter)."""
    meta = obj._meta
    columns, values, params = [], [], []
    for f in meta.local_concrete_fields:
        if f.generated or f is meta.auto_field:
            continue
        columns.append(connection.ops.quote_name(f.column))
        sql = overrides.get(f.attname, "{value}")
        if "{value}" in sql:
            params.append(f.get_db_prep_save(f.pre_save(obj, True), connection))
        values.append(sql.replace("{value}", "%s"))
    return columns, f"({', '.join(values)})", params


def _table(connection, model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def write(*, license: License, tag: Tag, paid: Payment | None, events: list[AuditEvent]) -> None:
    """Insert `paid` (numbered), `license` (paid by it), link `tag` to it and insert `events`
    (the payment's, then the license's; `audit.record.event`), giving each its id."""
    # The connection itself, not django.db.connection's per-thread proxy: each field's value is
    # prepared with it, and every attribute read through the proxy costs a thread-local lookup.
    connection = connections[DEFAULT_DB_ALIAS]
    qn = connection.ops.quote_name
    ctes, params = [], []
    if paid is not None:
        payments = _table(connection, Payment)
        ctes.append(
            f"c AS (INSERT INTO {_table(connection, ReceiptCounter)} (municipality_id, {qn('year')}, {qn('last')}) "
            f"VALUES (%s, %s, (SELECT COALESCE(MAX(receipt_serial), 0) + 1 FROM {payments} "
            "WHERE municipality_id = %s AND receipt_year = %s)) "
            f"ON CONFLICT (municipality_id, {qn('year')}) DO UPDATE SET {qn('last')} = "
            f"{_table(connection, ReceiptCounter)}.{qn('last')} + 1 RETURNING {qn('last')})"
        )
        params += [paid.municipality_id, paid.receipt_year, paid.municipality_id, paid.receipt_year]
        columns, row, row_params = _row(connection, paid, {"receipt_serial": f"(SELECT {qn('last')} FROM c)"})
        ctes.append(f"p AS (INSERT INTO {payments} ({', '.join(columns)}) VALUES {row} RETURNING id, receipt_serial)")
        params += row_params
    columns, row, row_params = _row(
        connection, license, {"payment_id": "(SELECT id FROM p)"} if paid is not None else {}
    )
    ctes.append(f"l AS (INSERT INTO {_table(connection, License)} ({', '.join(columns)}) VALUES {row} RETURNING id)")
    params += row_params
    ctes.append(f"t AS (UPDATE {_table(connection, Tag)} SET license_id = (SELECT id FROM l) WHERE id = %s)")
    params.append(tag.pk)
    ids = {
        "licensing.payment": "(SELECT jsonb_build_object('id', id, 'receipt_serial', receipt_serial) FROM p)",
        "licensing.license": "(SELECT jsonb_build_object('id', l.id, 'payment', "
        + ("(SELECT id FROM p)" if paid is not None else "NULL")
        + ") FROM l)",
    }
    rows = []
    for event in events:
        source = "p" if event.object_type == "licensing.payment" else "l"
        columns, row, row_params = _row(
            connection,
            event,
            {"object_id": f"(SELECT id::text FROM {source})", "after": f"{{value}}::jsonb || {ids[event.object_type]}"},
        )
        rows.append(row)
        params += row_params
    ctes.append(f"a AS (INSERT INTO {_table(connection, AuditEvent)} ({', '.join(columns)}) VALUES {', '.join(rows)})")
    payment_columns = "(SELECT id FROM p), (SELECT receipt_serial FROM p)" if paid is not None else "NULL, NULL"
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(ctes)} SELECT {payment_columns}, (SELECT id FROM l)", params)
        payment_id, receipt_serial, license_id = cursor.fetchone()
    if paid is not None:
        paid.pk, paid.receipt_serial = payment_id, receipt_serial
        paid._state.adding, paid._state.db = False, connection.alias
        license.payment = paid
    license.pk = license_id
    license._state.adding, license._state.db = False, connection.alias
