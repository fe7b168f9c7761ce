"""Statements compiled once per database instead of on every call, and the one module of Dogtag
that uses Django's internals (docs/architecture.md).

`Compiled` builds a queryset once per database with a stand-in value for each argument, has the
ORM compile it (quoting, joins and converters stay Django's) and runs that SQL with each call's
values in the stand-ins' places on Django's cursor. Rows come back as Django makes them: model
instances (with `select_related` objects) or `values_list()` tuples. A stand-in must occur nowhere
else in the query (the markers below are values no column holds); a value the backend wraps
(psycopg's Int4, text for a date on SQLite) is wrapped as its stand-in was. Reads go where the
routers send the model's reads (lib/replica.py), unless `using` says.

`insert()` is `Model.save()` for a new row with its INSERT compiled once; it sends no signals, so
it refuses a model with save signal receivers.
"""

import threading
from datetime import date

from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.models.query import ModelIterable, ValuesListIterable, get_related_populators
from django.db.models.signals import post_save, pre_save
from django.db.models.sql import InsertQuery

# Stand-ins of each kind, told apart from one another by value.
INT_MARKERS = tuple(2_147_482_001 + i for i in range(20))
STR_MARKERS = tuple(f"\x00marker {i}\x00" for i in range(20))
DATE_MARKERS = tuple(date(1001, 1, 1 + i) for i in range(20))
# Integers beyond a 64-bit column: no row holds one (SQLite cannot even take it as a parameter).
INT_RANGE = (-(2**63), 2**63 - 1)


class _Plan:
    __slots__ = ("sql", "arguments", "converters", "model", "init_list", "start", "end", "related")


class Compiled:
    """`Compiled(lambda serial, year: Tag.objects.filter(...), serial=2_147_483_001, year=...)`;
    `.objects(serial=300, year=2026)` or `.rows(...)` runs it."""

    def __init__(self, build, **stand_ins):
        self.build = build
        self.stand_ins = stand_ins
        self._plans = {}
        self._lock = threading.Lock()
        self._model = None

    def _plan(self, connection) -> _Plan:
        key = (connection.alias, connection.vendor)
        plan = self._plans.get(key)
        if plan is None:
            with self._lock:
                plan = self._plans.get(key) or self._compile(connection)
                self._plans[key] = plan
        return plan

    def _compile(self, connection) -> _Plan:
        queryset = self.build(**self.stand_ins).using(connection.alias)
        if queryset._iterable_class not in (ModelIterable, ValuesListIterable) or queryset._prefetch_related_lookups:
            raise TypeError("Compiled runs a model queryset or values_list(), without prefetching")
        compiler = queryset.query.get_compiler(connection=connection)
        plan = _Plan()
        plan.sql, params = compiler.as_sql()
        plan.arguments = [self._argument(p) for p in params]
        found = {a[1] for a in plan.arguments if a[0] != "constant"}
        if found != set(self.stand_ins):
            raise ValueError(f"the query does not use the markers {sorted(set(self.stand_ins) - found)}")
        fields = [s[0] for s in compiler.select[: compiler.col_count]]
        plan.converters = sorted(compiler.get_converters(fields).items())
        plan.model = None
        if queryset._iterable_class is ModelIterable:
            klass_info = compiler.klass_info
            plan.model = klass_info["model"]
            select_fields = klass_info["select_fields"]
            plan.start, plan.end = select_fields[0], select_fields[-1] + 1
            plan.init_list = [f[0].target.attname for f in compiler.select[plan.start : plan.end]]
            plan.related = get_related_populators(klass_info, compiler.select, connection.alias)
            if compiler.annotation_col_map:
                raise TypeError("Compiled model querysets carry no annotations")
        return plan

    def _argument(self, param):
        """("constant", value) or ("value", argument name, how the ORM wrapped it or None)."""
        for name, stand_in in self.stand_ins.items():
            if isinstance(param, bool) != isinstance(stand_in, bool):
                continue  # True is 1 to Python, not to the query
            if isinstance(param, type(stand_in)) and param == stand_in:
                # The value itself, or wrapped by the backend (psycopg's Int4 for an integer column).
                return ("value", name, None if type(param) is type(stand_in) else type(param))
            if isinstance(stand_in, date) and param == str(stand_in):
                return ("value", name, str)
        return ("constant", param, None)

    def _execute(self, connection, plan, values, checked=True) -> list:
        for value in values.values():
            if isinstance(value, int) and not INT_RANGE[0] <= value <= INT_RANGE[1]:
                return []  # as the ORM answers an equality no integer column can meet
        params = []
        for kind, value, wrap in plan.arguments:
            if kind == "constant":
                params.append(value)
            elif wrap is None:
                params.append(values[value])
            else:
                params.append(wrap(values[value]))
        rows = fetchall(connection, plan.sql, params, checked=checked)
        if plan.converters:
            converted = []
            for row in rows:
                row = list(row)
                for position, (functions, expression) in plan.converters:
                    value = row[position]
                    for function in functions:
                        value = function(value, expression, connection)
                    row[position] = value
                converted.append(row)
            rows = converted
        return rows

    def _using(self, using):
        if using is not None:
            return using
        if self._model is None:
            self._model = self.build(**self.stand_ins).model
        return router.db_for_read(self._model) or DEFAULT_DB_ALIAS

    def rows(self, using=None, *, connection=None, checked=True, **values) -> list[tuple]:
        """The rows of a `values_list()` query, on `connection` if given; `checked=False`: without
        CONN_HEALTH_CHECKS' query before it (for a read that asks again when the connection has gone)."""
        connection = connection or connections[self._using(using)]
        return [tuple(row) for row in self._execute(connection, self._plan(connection), values, checked)]

    def objects(self, using=None, **values) -> list:
        using = self._using(using)
        connection = connections[using]
        plan = self._plan(connection)
        if plan.model is None:
            raise TypeError("objects() is for a model queryset; rows() for values_list()")
        found = []
        for row in self._execute(connection, plan, values):
            obj = plan.model.from_db(using, plan.init_list, row[plan.start : plan.end])
            for populator in plan.related:
                populator.populate(row, obj)
            found.append(obj)
        return found


def fetchall(connection, sql: str, params, *, checked: bool = True) -> list[tuple]:
    """The rows of `sql` on Django's cursor (its error translation, execute wrappers and query
    log); `checked=False` skips the health check's `SELECT 1` (Django's `_cursor` without it)."""
    if checked:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    connection.ensure_connection()
    with connection._prepare_cursor(connection.create_cursor()) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def set_prefetched(obj, relation: str, objects) -> None:
    """`obj.<relation>.all()` answered from `objects`, as `prefetch_related` keeps it (a further
    `filter()` still reads the table)."""
    found = getattr(obj, relation).all()
    found._result_cache, found._prefetch_done = list(objects), True
    obj._prefetched_objects_cache = {**getattr(obj, "_prefetched_objects_cache", {}), relation: found}


def model_columns(model, prefix: str = "") -> list[str]:
    """The `values_list` names of a model's concrete fields, in their order (`prefix` for a
    related model's: "municipality__")."""
    return [prefix + (f.attname if not prefix else f.name) for f in model._meta.concrete_fields]


def db_table(model) -> str:
    """The model's table, for SQL written by hand about another app's model (its `_meta` is that
    app's own)."""
    return model._meta.db_table


def column(model, name: str) -> str:
    """The column of the model's field `name`."""
    return model._meta.get_field(name).column


def related_model(model, name: str):
    """The model at the other end of the model's relation `name`."""
    return model._meta.get_field(name).related_model


def instance(model, values, using: str = DEFAULT_DB_ALIAS):
    """The model instance of a row of its concrete fields, as the ORM would have made it."""
    fields = model._meta.concrete_fields
    return model.from_db(using, [f.attname for f in fields], values[: len(fields)])


_inserts = {}
_inserts_lock = threading.Lock()


def _insert_plan(model, connection):
    key = (model, connection.alias, connection.vendor)
    plan = _inserts.get(key)
    if plan is None:
        with _inserts_lock:
            meta = model._meta
            fields = [f for f in meta.local_concrete_fields if not f.generated and f is not meta.auto_field]
            query = InsertQuery(model)
            query.insert_values(fields, [model()], raw=False)
            compiler = query.get_compiler(connection=connection)
            compiler.returning_fields = [meta.pk]
            (sql, params), *more = compiler.as_sql()
            if more or len(params) != len(fields) or not connection.features.can_return_columns_from_insert:
                raise TypeError(f"{meta.label}: not a one-statement insert returning its id here")
            plan = _inserts[key] = (sql, fields)
    return plan


def insert(obj, using=DEFAULT_DB_ALIAS):
    """Save a new row (no id yet), as `obj.save()` does, and give it its id."""
    model = type(obj)
    meta = model._meta
    if obj.pk is not None or meta.parents or pre_save.has_listeners(model) or post_save.has_listeners(model):
        raise TypeError(f"{meta.label}: insert() is for a new row of a model without save signals")
    # As save() does: a related object saved since it was assigned gives its id now (a license
    # made with its payment before the payment was saved).
    obj._prepare_related_fields_for_save(operation_name="save")
    connection = connections[using]
    sql, fields = _insert_plan(model, connection)
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        (pk,) = cursor.fetchone()
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = using
    return obj
