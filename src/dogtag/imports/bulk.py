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

from django.db import connection, models, transaction
from django.db.models.base import ModelState

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


def reserve_ids(model, n: int) -> list[int]:
    """`n` new ids for `model`'s table, taken from the database's own counter."""
    if n == 0:
        return []
    table = model._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [table, n])
            return [row[0] for row in cursor.fetchall()]
        cursor.execute("UPDATE sqlite_sequence SET seq = seq + %s WHERE name = %s RETURNING seq", [n, table])
        row = cursor.fetchone()
        if row is None:  # the table never held a row: its counter starts now
            cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, n])
            last = n
        else:
            last = row[0]
        return list(range(last - n + 1, last + 1))


def _value(field):
    if isinstance(field, models.JSONField):
        return lambda obj: json.dumps(obj.__dict__[field.attname], cls=field.encoder)
    return lambda obj: field.get_db_prep_save(field.pre_save(obj, True), connection)


def insert(model, objs: list) -> list:
    """Insert unsaved `objs` of `model` (in the caller's transaction); those without a pk get one
    reserved here (the others' pks were reserved by the caller, with `reserve_ids`)."""
    if not objs:
        return objs
    assert connection.in_atomic_block, "insert runs inside the batch's transaction"
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    unnumbered = [obj for obj in objs if obj.pk is None]
    for obj, pk in zip(unnumbered, reserve_ids(model, len(unnumbered)), strict=True):
        obj.pk = pk
    for obj in objs:
        obj._state.adding = False
        obj._state.db = connection.alias
    # Values straight from each instance's __dict__ (every concrete attname is there, whether the
    # instance came from Maker or from the model's constructor); the rest through the field.
    names = [f.attname for f in fields]
    prepared = [(i + 1, _value(f)) for i, f in enumerate(fields) if not _plain(f)]
    rows = []
    for obj in objs:
        d = obj.__dict__
        row = [d["id"], *[d[name] for name in names]]
        for i, value in prepared:
            row[i] = value(obj)
        rows.append(row)
    write_rows(model._meta.db_table, ["id", *(f.column for f in fields)], rows)
    return objs


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
