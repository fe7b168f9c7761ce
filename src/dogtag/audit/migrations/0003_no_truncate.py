"""PostgreSQL refuses TRUNCATE of the audit trail too (row triggers do not see it).

The test suite empties tables with TRUNCATE between transactional tests; its connections set
`dogtag.allow_audit_truncate = on` (tests/conftest.py). Nothing in Dogtag sets it. The app's
database role should not own its tables either (README, "The database role")."""

from django.db import migrations

POSTGRES = [
    """CREATE FUNCTION audit_event_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF coalesce(current_setting('dogtag.allow_audit_truncate', true), '') = 'on' THEN
           RETURN NULL;
         END IF;
         RAISE EXCEPTION 'audit events are append-only: TRUNCATE refused';
       END $$""",
    """CREATE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON audit_auditevent
       FOR EACH STATEMENT EXECUTE FUNCTION audit_event_no_truncate()""",
]


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in POSTGRES:
            schema_editor.execute(sql)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP TRIGGER IF EXISTS audit_event_no_truncate ON audit_auditevent")
        schema_editor.execute("DROP FUNCTION IF EXISTS audit_event_no_truncate()")


class Migration(migrations.Migration):
    dependencies = [("audit", "0002_append_only")]
    operations = [migrations.RunPython(forwards, backwards)]
