"""Inserting many rows fast: ids reserved from the table's own sequence, then one COPY (PostgreSQL)
or one `executemany` (SQLite) per model.

Django's `bulk_create` compiles every value through the ORM's SQL compiler, which costs more than
the database itself on a 100,000-row roll, and COPY cannot return ids. So the ids are taken from
the database first and the objects know their pks before their rows are sent: on PostgreSQL from
the table's sequence (`nextval`, safe under concurrent writers); on SQLite from the table's
AUTOINCREMENT counter in `sqlite_sequence`, advanced in a write transaction (IMMEDIATE here, so
no other writer runs between reading and advancing it). Ids reserved and never used are gaps,
as a rolled-back insert leaves on either engine."""

import json

from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction
from django.db.models.base import ModelState
from django.utils import timezone

PLAIN = (
    models.CharField,
    models.IntegerField,
    models.BooleanField,
    models.ForeignKey,
    models.TextField,
    models.DateField,
    models.DecimalField,
)


def _plain(field) -> bool:
    """Values both drivers take as they are (Django registers Decimal and date adapters for SQLite)."""
    return isinstance(field, PLAIN) and not isinstance(field, (models.JSONField, models.DateTimeField))


_SEQUENCES = {}  # table -> its id sequence (a table's sequence is its own for good)


def reserve_ids(model, n: int) -> list[int]:
    """`n` new ids for `model`'s table, taken from the database's own counter."""
    if n == 0:
        return []
    table = model._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # The sequence is named once: pg_get_serial_sequence in the select list would be
            # looked up again for every id (it is a catalog read, six times nextval's own cost).
            sequence = _SEQUENCES.get(table)
            if sequence is None:
                cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
                sequence = _SEQUENCES[table] = cursor.fetchone()[0]
            cursor.execute("SELECT nextval(%s::regclass) FROM generate_series(1, %s)", [sequence, n])
            return [row[0] for row in cursor.fetchall()]
        cursor.execute("UPDATE sqlite_sequence SET seq = seq + %s WHERE name = %s RETURNING seq", [n, table])
        row = cursor.fetchone()
        if row is None:  # the table never held a row: its counter starts now
            cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, n])
            last = n
        else:
            last = row[0]
        return list(range(last - n + 1, last + 1))


def _preparer(field, now):
    """How one field's value is sent: a JSON field dumped, an auto_now(_add) field the batch's own
    time, anything else through the field (with the connection resolved once, not per value)."""
    if isinstance(field, models.JSONField):
        return lambda value: json.dumps(value, cls=field.encoder)
    prep, real = field.get_db_prep_save, connections[DEFAULT_DB_ALIAS]
    if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
        stamp = prep(now, real)
        return lambda value: stamp
    return lambda value: None if value is None else prep(value, real)


def insert(model, objs: list) -> list:
    """Insert unsaved `objs` of `model` (in the caller's transaction); those without a pk get one
    reserved here (the others' pks were reserved by the caller, with `reserve_ids`)."""
    if not objs:
        return objs
    unnumbered = [obj for obj in objs if obj.pk is None]
    for obj, pk in zip(unnumbered, reserve_ids(model, len(unnumbered)), strict=True):
        obj.__dict__["id"] = pk
    # Values straight from each instance's __dict__ (every concrete attname is there, whether the
    # instance came from Maker or from the model's constructor).
    names, db, rows = [f.attname for f in model._meta.concrete_fields], connection.alias, []
    for obj in objs:
        obj._state.adding, obj._state.db = False, db
        d = obj.__dict__
        rows.append([d[name] for name in names])
    send(model, rows, timezone.now())
    return objs


def send(model, rows: list, now) -> None:
    """Insert rows of `model` given as lists of every concrete field's value in field order (a kept
    plan's records: imports/plans.py, or `insert`'s instances), in the caller's transaction; the
    fields neither driver takes as they are prepared in place by the field."""
    assert connection.in_atomic_block, "send runs inside the batch's transaction"
    fields = model._meta.concrete_fields
    prepared = [(i, _preparer(f, now)) for i, f in enumerate(fields) if not _plain(f) and not f.primary_key]
    if prepared:
        for row in rows:
            for i, prepare in prepared:
                row[i] = prepare(row[i])
    write_rows(model._meta.db_table, [f.column for f in fields], rows)


def insert_rows(model, names: tuple, rows) -> None:
    """Insert rows of `model` given as tuples of the fields `names` (attnames, plain values) in
    the caller's transaction, without model instances: every other field is its default, the id
    the table's own. For the records nobody reads back in the same batch (ownerships, row records)."""
    assert connection.in_atomic_block, "insert_rows runs inside the batch's transaction"
    rest = [f for f in model._meta.concrete_fields if not f.primary_key and f.attname not in names]
    assert all(_plain(f) and not (f.has_default() and callable(f.default)) for f in rest), (
        f"{model.__name__}: a default computed per row"
    )
    tail = tuple(f.get_default() for f in rest)
    column_of = {f.attname: f.column for f in model._meta.concrete_fields}
    columns = [column_of[n] for n in names]
    write_rows(model._meta.db_table, [*columns, *(f.column for f in rest)], [(*row, *tail) for row in rows])


def write_rows(table: str, columns: list[str], rows: list) -> None:
    qn = connection.ops.quote_name
    names = ", ".join(qn(c) for c in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {qn(table)} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(columns))
            cursor.executemany(f"INSERT INTO {qn(table)} ({names}) VALUES ({marks})", rows)


class Maker:
    """Unsaved model instances without `Model.__init__`, which sorts keyword arguments field by
    field and costs more than validating a row: defaults computed once per model (a callable
    default, such as a JSON field's `list`, is called for each instance), values set by attname.
    The models made this way have no pre_init/post_init receivers."""

    def __init__(self, model):
        self.model = model
        self.static, self.dynamic = {}, []
        for f in model._meta.concrete_fields:
            if f.has_default() and callable(f.default):
                self.dynamic.append(f)
            else:
                self.static[f.attname] = f.get_default()

    def __call__(self, **values):
        obj = self.model.__new__(self.model)
        obj._state = ModelState()
        d = obj.__dict__
        d.update(self.static)
        for f in self.dynamic:
            d[f.attname] = f.get_default()
        d.update(values)
        return obj
