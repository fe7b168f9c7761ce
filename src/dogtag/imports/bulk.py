"""Inserting many rows fast: one `executemany` per model with ids allocated up front.

Django's `bulk_create` compiles every value through the ORM's SQL compiler, which costs more than
the database itself on a 100,000-row roll. Here each row's values go to the driver as they are
(dates, Decimals, strings, ints; JSON serialised by the field), and the ids come from the
database first, so the objects know their pks: on PostgreSQL from the table's sequence; on SQLite
from the largest id, which is safe because a SQLite write transaction (IMMEDIATE) excludes every
other writer until it commits."""

from django.db import DEFAULT_DB_ALIAS, connection, connections, models
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


def _allocate(model, n: int) -> list[int]:
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [table, n])
            return [row[0] for row in cursor.fetchall()]
        cursor.execute(f'SELECT COALESCE(MAX(id), 0) FROM "{table}"')
        start = cursor.fetchone()[0] + 1
        return list(range(start, start + n))


def insert(model, objs: list) -> list:
    """Insert unsaved `objs` of `model` (in the caller's transaction) and set their pks."""
    if not objs:
        return objs
    assert connection.in_atomic_block, "insert runs inside the batch's transaction"
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    plain = [_plain(f) for f in fields]
    conn = connections[DEFAULT_DB_ALIAS]
    for obj, pk in zip(objs, _allocate(model, len(objs)), strict=True):
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = connection.alias
    # Values straight from each instance's __dict__ (every concrete attname is there, whether the
    # instance came from Maker or from the model's constructor); the rest through the field.
    names = [f.attname for f in fields]
    prepared = [(i, f) for i, (f, simple) in enumerate(zip(fields, plain, strict=True)) if not simple]
    rows = []
    for obj in objs:
        d = obj.__dict__
        row = [d["id"], *[d[name] for name in names]]
        for i, f in prepared:
            row[i + 1] = f.get_db_prep_save(f.pre_save(obj, True), conn)
        rows.append(row)
    qn = connection.ops.quote_name
    columns = ", ".join(qn(c) for c in ["id", *(f.column for f in fields)])
    marks = ", ".join(["%s"] * (len(fields) + 1))
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {qn(model._meta.db_table)} ({columns}) VALUES ({marks})", rows)
    return objs


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
