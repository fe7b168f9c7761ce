"""A query the ORM compiles once per database, run again with new values.

Building a queryset and compiling it to SQL costs more CPU than a short indexed query takes to
run: on the counter page, the ORM's compiling was a third of the page. As the tag lookup does
(licensing/tag_lookup.py), a `Compiled` query is built by the ORM once per database, with a
marker for each value that changes from call to call, so the quoting, the joins, the columns
and their converters stay Django's. Each call puts its values where the markers were, runs the
SQL and applies the columns' converters to the rows.

    ANIMAL = Compiled(lambda pk: Animal.objects.filter(pk=pk).values_list("name"), pk=MARKER_INT)
    ANIMAL.rows(pk=7)             # [("Rex",)]

A marker is an integer, a string or a date no real value takes (the ones below, or others of
the same kind); a value is given for each marker on each call. Constants of the queryset (a
status, a None) stay as the ORM compiled them. Only what `values_list` returns is read:
`instance()` makes a model instance from a row of its concrete fields (`model_columns()`).
"""

import threading
from collections.abc import Callable
from datetime import date

from django.db import DEFAULT_DB_ALIAS, connections, router

# Markers of each kind: values no column holds in practice, told apart from one another by value.
INT_MARKERS = tuple(2_147_482_001 + i for i in range(20))
STR_MARKERS = tuple(f"\x00marker {i}\x00" for i in range(20))
DATE_MARKERS = tuple(date(1001, 1, 1 + i) for i in range(20))
# Integers beyond a 64-bit column: no row holds one (SQLite cannot even take it as a parameter).
INT_RANGE = (-(2**63), 2**63 - 1)


class Compiled:
    def __init__(self, build: Callable, **markers):
        self.build = build
        self.markers = markers
        self._by_database: dict[tuple[str, str], tuple] = {}
        self._lock = threading.Lock()
        self._model = None

    def _compile(self, connection):
        queryset = self.build(**self.markers).using(connection.alias)
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        names = {}
        for name, marker in self.markers.items():
            names[_key(marker)] = name
            if isinstance(marker, date):
                names[_key(connection.ops.adapt_datefield_value(marker))] = name
        # (marker name or None, the compiled constant) for each parameter, in order.
        slots = [(names.get(_key(p)), p) for p in params]
        unused = set(self.markers) - {name for name, _ in slots}
        if unused:
            raise ValueError(f"the query does not use the markers {sorted(unused)}")
        # A value goes in as the ORM passed its marker: psycopg's Int4 and the like stay so.
        kinds = {name: type(p) for name, p in slots if name and isinstance(p, int) and type(p) is not int}
        dates = {name for name, marker in self.markers.items() if isinstance(marker, date)}
        fields = [s[0] for s in compiler.select[: compiler.col_count]]
        converters = sorted(compiler.get_converters(fields).items())
        return sql, slots, dates, kinds, converters

    def _for(self, connection):
        key = (connection.alias, connection.vendor)
        found = self._by_database.get(key)
        if found is None:
            with self._lock:
                found = self._by_database.setdefault(key, self._compile(connection))
        return found

    def rows(self, using: str | None = None, **values) -> list[list]:
        """The rows for these values, from `using` or the database the routers read the
        queryset's model from (lib/replica.py: a report's reads go to the replica)."""
        if using is None:
            if self._model is None:
                self._model = self.build(**self.markers).model
            using = router.db_for_read(self._model) or DEFAULT_DB_ALIAS
        connection = connections[using]
        sql, slots, dates, kinds, converters = self._for(connection)
        for value in values.values():
            if isinstance(value, int) and not INT_RANGE[0] <= value <= INT_RANGE[1]:
                return []  # as the ORM answers an equality no integer column can meet
        values = {name: kinds[name](value) if name in kinds else value for name, value in values.items()}
        adapt = connection.ops.adapt_datefield_value
        params = [
            constant if name is None else adapt(values[name]) if name in dates else values[name]
            for name, constant in slots
        ]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if not converters:
            return [list(row) for row in rows]
        converted = []
        for row in rows:
            row = list(row)
            for position, (functions, expression) in converters:
                value = row[position]
                for function in functions:
                    value = function(value, expression, connection)
                row[position] = value
            converted.append(row)
        return converted


def model_columns(model, prefix: str = "") -> list[str]:
    """The `values_list` names of a model's concrete fields, in their order (`prefix` for a
    related model's: "municipality__")."""
    return [prefix + (f.attname if not prefix else f.name) for f in model._meta.concrete_fields]


def instance(model, values, using: str = DEFAULT_DB_ALIAS):
    """The model instance of a row of its concrete fields, as the ORM would have made it."""
    fields = model._meta.concrete_fields
    return model.from_db(using, [f.attname for f in fields], values[: len(fields)])


def _key(value):
    """A parameter as a marker is known by: its value, of its plain kind (psycopg's Int4 is an int)."""
    for kind in (bool, int, str, date):
        if isinstance(value, kind):
            return kind, kind(value) if kind is not date else value
    return type(value), value
