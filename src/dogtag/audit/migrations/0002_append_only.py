"""The database itself refuses to change or delete an audit event, whatever the code does.

On SQLite only changes are refused: the test suite empties tables with DELETE between
transactional tests, while PostgreSQL empties them with TRUNCATE, which row triggers ignore."""

from django.db import migrations

SQLITE = [
    """CREATE TRIGGER audit_event_no_update BEFORE UPDATE ON audit_auditevent
       BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END""",
]
POSTGRES = [
    """CREATE FUNCTION audit_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'audit events are append-only'; END $$""",
    """CREATE TRIGGER audit_event_append_only BEFORE UPDATE OR DELETE ON audit_auditevent
       FOR EACH ROW EXECUTE FUNCTION audit_event_append_only()""",
]


def forwards(apps, schema_editor):
    statements = {"sqlite": SQLITE, "postgresql": POSTGRES}.get(schema_editor.connection.vendor, [])
    for sql in statements:
        schema_editor.execute(sql)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS audit_event_no_update")
    elif schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP TRIGGER IF EXISTS audit_event_append_only ON audit_auditevent")
        schema_editor.execute("DROP FUNCTION IF EXISTS audit_event_append_only()")


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
