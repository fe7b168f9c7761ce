"""The app's PostgreSQL role: one that owns nothing, may read and write the tables it works with,
and may only add to and read the audit trail (no UPDATE, DELETE or TRUNCATE; not owning the table,
it cannot disable its triggers or drop them). Granted by the tables' owner: `dogtag db grant ROLE`,
and after each `migrate` run as the owner when DATABASE_APP_ROLE names the role (created, with
DATABASE_APP_PASSWORD, if there is none)."""

from django.db import connection

APPEND_ONLY = ("audit_auditevent",)
READ_ONLY = ("audit_chainhead", "django_migrations")  # the chain's head is written by the owner's trigger


class RoleRefused(Exception):
    pass


def grant(role: str, *, create: bool = False, password: str | None = None) -> None:
    if connection.vendor != "postgresql":
        raise RoleRefused("database roles are PostgreSQL's; on SQLite the file's owner is the only role")
    from psycopg import sql

    r = sql.Identifier(role)
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role])
        found = cursor.fetchone()
        if found is None and not create:
            raise RoleRefused(f"there is no role {role!r}: create it, or pass --create")
        if found is not None and found[0]:
            raise RoleRefused(f"{role!r} is a superuser: the app must run as a role that owns nothing")
        if (found is None or password) and not _may_manage_roles(cursor):
            doing = "create the role" if found is None else "set the password of the role"
            raise RoleRefused(
                f"the tables' owner may not {doing} {role!r} (it has no CREATEROLE): "
                f"{'create' if found is None else 'set'} it as a superuser (`sudo -u postgres createuser {role} -P`, "
                "then grant without a password), or give the owner CREATEROLE (`ALTER ROLE <owner> CREATEROLE`)"
            )
        if found is None:
            cursor.execute(sql.SQL("CREATE ROLE {} LOGIN").format(r).as_string(cursor.cursor))
        if password:
            statement = sql.SQL("ALTER ROLE {} PASSWORD {}").format(r, sql.Literal(password))
            cursor.execute(statement.as_string(cursor.cursor))
        cursor.execute(
            "SELECT count(*) FROM pg_class c JOIN pg_roles o ON o.oid = c.relowner "
            "WHERE o.rolname = %s AND c.relnamespace = current_schema()::regnamespace",
            [role],
        )
        if cursor.fetchone()[0]:
            raise RoleRefused(f"{role!r} owns tables here: the app must own nothing (migrate as the owner)")
        schema = _schema(cursor)
        for statement in (
            "GRANT CONNECT ON DATABASE {db} TO {r}",
            "GRANT USAGE ON SCHEMA {schema} TO {r}",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {r}",
            "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {r}",
            *(f"REVOKE ALL ON {t} FROM {{r}}" for t in APPEND_ONLY + READ_ONLY),
            *(f"GRANT SELECT, INSERT ON {t} TO {{r}}" for t in APPEND_ONLY),
            *(f"GRANT SELECT ON {t} TO {{r}}" for t in READ_ONLY),
        ):
            names = {"r": r, "db": sql.Identifier(connection.settings_dict["NAME"]), "schema": sql.Identifier(schema)}
            cursor.execute(sql.SQL(statement).format(**names).as_string(cursor.cursor))


def _may_manage_roles(cursor) -> bool:
    cursor.execute("SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user")
    return bool(cursor.fetchone()[0])


def _schema(cursor) -> str:
    cursor.execute("SELECT current_schema()")
    return cursor.fetchone()[0]


def grant_after_migrate(using="default", **kwargs) -> None:
    from django.conf import settings

    if using == "default" and settings.DATABASE_APP_ROLE and connection.vendor == "postgresql":
        from django.core.management import CommandError

        try:
            grant(settings.DATABASE_APP_ROLE, create=True, password=settings.DATABASE_APP_PASSWORD or None)
        except RoleRefused as e:
            raise CommandError(f"the migrations ran, but DATABASE_APP_ROLE was not granted: {e}") from None
