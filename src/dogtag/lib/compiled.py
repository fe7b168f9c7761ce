"""One read compiled once per database instead of on every call: the tag lookup's, the one fast
path its goals need (bench/tag_lookup.py, 1m tags on PostgreSQL, 4 clients, load ~10 on 2 cores:
server CPU 0.69 ms a request compiled once, 2.38 ms as the same ORM query compiled on each
request, which projects to 842 req/s on 2 idle cores against the goal's 1,000).

`CompiledRows` has the ORM build a `values_list()` queryset once per database with a stand-in
value for each argument and compile it (quoting, joins and converters stay Django's), then runs
that SQL with each call's values in the stand-ins' places on Django's cursor. A stand-in must
occur nowhere else in the query (a value no column holds). It is the one module besides
dogtag/lean.py that uses Django's internals (the SQL compiler): docs/architecture.md.
"""

import threading

from django.db import connections
from django.db.models.query import ValuesListIterable


class CompiledRows:
    """`CompiledRows(lambda slug, serial: Tag.objects.filter(...).values_list(...), slug="\\x00s\\x00",
    serial=2_147_483_001)`; `.rows("default", slug="benton", serial=300)` runs it."""

    def __init__(self, build, **stand_ins):
        self.build, self.stand_ins = build, stand_ins
        self._plans, self._lock = {}, threading.Lock()

    def _plan(self, connection):
        key = (connection.alias, connection.vendor)
        if key not in self._plans:
            with self._lock:
                queryset = self.build(**self.stand_ins).using(connection.alias)
                if queryset._iterable_class is not ValuesListIterable:
                    raise TypeError("CompiledRows runs a values_list() queryset")
                compiler = queryset.query.get_compiler(connection=connection)
                sql, params = compiler.as_sql()
                arguments = [self._argument(p) for p in params]
                if {a[1] for a in arguments if a[0] == "value"} != set(self.stand_ins):
                    raise ValueError("the query does not take every stand-in")
                fields = [s[0] for s in compiler.select[: compiler.col_count]]
                self._plans[key] = (sql, arguments, sorted(compiler.get_converters(fields).items()))
        return self._plans[key]

    def _argument(self, param):
        """("constant", value, None) or ("value", argument name, the backend's wrapping or None)."""
        for name, stand_in in self.stand_ins.items():
            if isinstance(param, type(stand_in)) and param == stand_in:
                # The value itself, or wrapped by the backend (psycopg's Int4 for an integer column).
                return ("value", name, None if type(param) is type(stand_in) else type(param))
        return ("constant", param, None)

    def rows(self, using: str, **values) -> list[tuple]:
        connection = connections[using]
        sql, arguments, converters = self._plan(connection)
        params = [
            v if kind == "constant" else values[v] if wrap is None else wrap(values[v]) for kind, v, wrap in arguments
        ]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if not converters:
            return rows
        converted = []
        for row in rows:
            row = list(row)
            for position, (functions, expression) in converters:
                for function in functions:
                    row[position] = function(row[position], expression, connection)
            converted.append(tuple(row))
        return converted
