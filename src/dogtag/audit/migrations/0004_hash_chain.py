"""Each audit event chained to the one before it by hash (dogtag/audit/chain.py): on PostgreSQL by a
BEFORE INSERT trigger, whatever writes the row; the events written before, chained in their order."""

import django.utils.timezone
from django.db import migrations, models

# The hash of a row: the text dogtag/audit/chain.py's `digest` hashes on SQLite.
HASH = """CREATE FUNCTION audit_event_hash(e audit_auditevent) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array(
    e.seq, e.previous_hash, e.municipality_id, e.actor_id, e.action, e.object_type, e.object_id,
    e.object_repr, e.before, e.after, to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')
  )::text, 'UTF8')), 'hex') $$"""

# Chains each inserted row to the head, which it locks until the transaction ends. SECURITY
# DEFINER: it runs as the tables' owner, so the app's role needs no privilege on the head.
CHAIN = """CREATE FUNCTION audit_event_chain() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
  SET search_path FROM CURRENT AS $$
  DECLARE head audit_chainhead%ROWTYPE;
  BEGIN
    SELECT * INTO head FROM audit_chainhead WHERE id = 1 FOR UPDATE;
    IF NOT FOUND THEN
      INSERT INTO audit_chainhead (id, seq, hash) VALUES (1, 0, '') ON CONFLICT DO NOTHING;
      SELECT * INTO head FROM audit_chainhead WHERE id = 1 FOR UPDATE;
    END IF;
    NEW.seq := head.seq + 1;
    NEW.previous_hash := head.hash;
    IF head.at IS NOT NULL AND NEW.at < head.at THEN
      NEW.at := head.at;  -- a transaction that took its time before this one: never before the event it follows
    END IF;
    NEW.hash := audit_event_hash(NEW);
    UPDATE audit_chainhead SET seq = NEW.seq, hash = NEW.hash, at = NEW.at WHERE id = 1;
    RETURN NEW;
  END $$"""

TRIGGER = """CREATE TRIGGER audit_event_chain BEFORE INSERT ON audit_auditevent
  FOR EACH ROW EXECUTE FUNCTION audit_event_chain()"""

# The events written before the chain, chained in the order they were written.
BACKFILL_POSTGRES = """DO $$
  DECLARE r record; prev text := ''; n bigint := 0; last_at timestamptz;
  BEGIN
    ALTER TABLE audit_auditevent DISABLE TRIGGER audit_event_append_only;
    FOR r IN SELECT id, at FROM audit_auditevent ORDER BY at, id LOOP
      n := n + 1;
      UPDATE audit_auditevent SET seq = n, previous_hash = prev WHERE id = r.id;
      UPDATE audit_auditevent e SET hash = audit_event_hash(e) WHERE id = r.id RETURNING hash INTO prev;
      last_at := r.at;
    END LOOP;
    ALTER TABLE audit_auditevent ENABLE TRIGGER audit_event_append_only;
    INSERT INTO audit_chainhead (id, seq, hash, at) VALUES (1, n, prev, last_at);
  END $$"""


def forwards(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor == "postgresql":
        for sql in (HASH, CHAIN, BACKFILL_POSTGRES, TRIGGER):
            schema_editor.execute(sql, params=None)
        return
    from dogtag.audit.chain import FIELDS, digest

    AuditEvent = apps.get_model("audit", "AuditEvent")
    ChainHead = apps.get_model("audit", "ChainHead")
    schema_editor.execute("DROP TRIGGER IF EXISTS audit_event_no_update")
    seq, previous, at = 0, "", None
    for e in AuditEvent.objects.order_by("at", "pk").iterator():
        seq += 1
        values = {f: getattr(e, f) for f in FIELDS}
        e.seq, e.previous_hash, e.hash = seq, previous, digest(seq, previous, values, e.at)
        AuditEvent.objects.filter(pk=e.pk).update(seq=e.seq, previous_hash=e.previous_hash, hash=e.hash)
        previous, at = e.hash, e.at
    ChainHead.objects.create(id=1, seq=seq, hash=previous, at=at)
    schema_editor.execute(
        """CREATE TRIGGER audit_event_no_update BEFORE UPDATE ON audit_auditevent
           BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END"""
    )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP TRIGGER IF EXISTS audit_event_chain ON audit_auditevent")
        schema_editor.execute("DROP FUNCTION IF EXISTS audit_event_chain()")
        schema_editor.execute("DROP FUNCTION IF EXISTS audit_event_hash(audit_auditevent)")


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0003_no_truncate"),
    ]

    operations = [
        migrations.CreateModel(
            name="ChainCheck",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("checked_at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                ("events", models.BigIntegerField()),
                ("problems", models.JSONField(default=list)),
            ],
            options={
                "ordering": ["-checked_at", "-pk"],
            },
        ),
        migrations.CreateModel(
            name="ChainHead",
            fields=[
                ("id", models.PositiveSmallIntegerField(default=1, primary_key=True, serialize=False)),
                ("seq", models.BigIntegerField(default=0)),
                ("hash", models.CharField(blank=True, max_length=64)),
                ("at", models.DateTimeField(null=True)),
            ],
        ),
        migrations.AddField(
            model_name="auditevent",
            name="hash",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="auditevent",
            name="previous_hash",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="auditevent",
            name="seq",
            field=models.BigIntegerField(editable=False, null=True, unique=True),
        ),
        migrations.AlterField(
            model_name="auditevent",
            name="at",
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now, editable=False),
        ),
        migrations.RunPython(forwards, backwards),
    ]
