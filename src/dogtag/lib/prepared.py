"""The hot statements as PostgreSQL prepared statements (issue 12: the tag lookup, the counter
page and the license issue).

Django binds values client-side: psycopg parses each statement for its placeholders and quotes
every value into it, and the server parses and plans the text again on every call. A statement
the application runs thousands of times is here sent on a psycopg cursor kept for the connection
that binds its values server-side and prepares it once (`prepare=True`; none where settings.py
turns prepared statements off, DB_PREPARED_STATEMENTS, for a transaction pooler). It is wrapped
in Django's own cursor wrapper, so errors are Django's (an IntegrityError is one), execute
wrappers run and the query log (DEBUG, assertNumQueries) shows the statement with its values.
The wrapper is not closed after use: that would close the kept cursor.
"""

from django.db.backends.utils import CursorDebugWrapper, CursorWrapper

_classes = {}


def _cursor_class(raw: bool):
    """psycopg's Cursor (`%s` placeholders) or RawCursor (PostgreSQL's own `$1`), preparing."""
    if raw not in _classes:
        import psycopg

        class Prepared(psycopg.RawCursor if raw else psycopg.Cursor):
            def execute(self, query, params=None, **kwargs):
                return super().execute(query, params, prepare=True)

        _classes[raw] = Prepared
    return _classes[raw]


def _kept(connection, raw: bool):
    """This connection's kept cursor of the kind: a new one each call sets up its row loaders
    again, a sixth of the tag lookup's CPU."""
    attribute = "_dogtag_prepared_raw" if raw else "_dogtag_prepared"
    kept = getattr(connection, attribute, None)
    if kept is None or kept.closed or kept.connection is not connection.connection:
        kept = _cursor_class(raw)(connection.connection)
        setattr(connection, attribute, kept)
    return kept


class _DebugCursor(CursorDebugWrapper):
    """Django's query log for a kept cursor: the statement with its values, as Django's own
    server-side binding cursors log it (psycopg keeps no text of a prepared execution)."""

    def execute(self, sql, params=None):
        with self.debug_sql(self.db.ops.compose_sql(sql, params), params):
            return CursorWrapper.execute(self, sql, params)


class _RawDebugCursor(CursorDebugWrapper):
    def execute(self, sql, params=None):
        shown = sql
        for number in range(len(params or ()), 0, -1):  # $10 before $1
            shown = shown.replace(f"${number}", "%s")
        with self.debug_sql(self.db.ops.compose_sql(shown, params), params):
            return CursorWrapper.execute(self, sql, params)


def wrapped(connection, *, raw: bool = False):
    """The kept cursor, wrapped, on a connection already open (`connection.ensure_connection()`)."""
    connection.validate_thread_sharing()
    kept = _kept(connection, raw)
    if connection.queries_logged:
        return (_RawDebugCursor if raw else _DebugCursor)(kept, connection)
    return connection.make_cursor(kept)


def cursor(connection, *, raw: bool = False):
    """`connection.cursor()` on PostgreSQL, its statements prepared; `raw`: written with `$1`
    placeholders, which psycopg sends as they are (a long statement with many values is past
    psycopg's cache of parsed statements, and parsing it again cost more than sending it)."""
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    return wrapped(connection, raw=raw)


def fetchall(connection, sql: str, params) -> list[tuple]:
    """The rows of `sql`: prepared on PostgreSQL, on Django's own cursor elsewhere."""
    if connection.vendor != "postgresql":
        with connection.cursor() as c:
            c.execute(sql, params)
            return c.fetchall()
    c = cursor(connection)
    c.execute(sql, params)
    return c.fetchall()


def numbered(sql: str) -> str:
    """`sql`, whose only `%` are its `%s` placeholders, with them as `$1`, `$2`, … (for
    `cursor(raw=True)`)."""
    first, *rest = sql.split("%s")
    return first + "".join(f"${number}{part}" for number, part in enumerate(rest, start=1))
