"""The audit trail's hash chain: `dogtag audit verify` names a row altered, deleted or back-dated by
someone past the privileges (here the test's own superuser or the SQLite file's owner), /healthz
reports the daily check's break, and concurrent appends stay one chain."""

import io
import threading
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.db.utils import DatabaseError

from dogtag.audit import chain, checks, tasks
from dogtag.audit.action_names import Action
from dogtag.audit.models import AuditEvent, ChainHead
from dogtag.audit.record import event, record, record_all, snapshot
from dogtag.registry.models import Municipality
from dogtag.worker import heartbeat
from tests.base import BaseTestCase


def _as_owner(sql: str, params=()):
    """A statement the app's role cannot make: past the append-only triggers."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the fixtures' checks, due before an ALTER TABLE
            cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER USER")
            cursor.execute(sql, params)
            cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER USER")
        else:
            cursor.execute("DROP TRIGGER audit_event_no_update")
            cursor.execute(sql, params)
            cursor.execute(
                "CREATE TRIGGER audit_event_no_update BEFORE UPDATE ON audit_auditevent "
                "BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END"
            )


def _verify() -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("audit", "verify", stdout=out)
    except CommandError as e:
        return 1, out.getvalue() + str(e)
    return 0, out.getvalue()


class ChainTests(BaseTestCase):
    def test_every_event_is_chained_and_the_chain_verifies(self):
        events = list(AuditEvent.objects.order_by("seq"))
        assert len(events) >= 5 and all(e.seq for e in events)
        assert [e.seq for e in events] == list(range(events[0].seq, events[0].seq + len(events)))
        assert all(b.previous_hash == a.hash for a, b in zip(events, events[1:], strict=False))
        code, out = _verify()
        assert code == 0 and f"{len(events)} events chained" in out and events[-1].hash in out

    def test_the_events_of_one_action_are_stored_as_given_in_their_order(self):
        benton = Municipality.objects.get(slug="benton")
        with transaction.atomic():
            events = [
                event(acting_user=None, action=Action.MUNICIPALITY_SEAL, obj=benton, before={"n": i} if i % 2 else None)
                for i in range(5)
            ]
            # in batches of two on PostgreSQL: three INSERTs, the chain in the events' order
            written = chain.insert_events(events, batch=2) if connection.vendor == "postgresql" else record_all(events)
        stored = list(AuditEvent.objects.filter(pk__in=[e.pk for e in written]).order_by("seq"))
        assert [e.pk for e in stored] == [e.pk for e in events]
        assert [e.before for e in stored] == [None, {"n": 1}, None, {"n": 3}, None]
        assert AuditEvent.objects.filter(pk__in=[e.pk for e in events], before__isnull=True).count() == 3  # SQL NULL
        assert all(e.after == snapshot(benton) for e in stored)
        assert _verify()[0] == 0

    def test_it_names_an_altered_row(self):
        victim = AuditEvent.objects.order_by("seq")[2]
        _as_owner("UPDATE audit_auditevent SET object_repr = 'someone else' WHERE id = %s", [victim.pk])
        code, out = _verify()
        assert code == 1
        assert f"event #{victim.pk} (chain position {victim.seq}" in out and "was altered" in out

    def test_it_names_a_deleted_row_and_a_deleted_last_row(self):
        events = list(AuditEvent.objects.order_by("seq"))
        _as_owner("DELETE FROM audit_auditevent WHERE id IN (%s, %s)", [events[1].pk, events[-1].pk])
        code, out = _verify()
        assert code == 1
        assert f"1 event(s) deleted before event #{events[2].pk}" in out
        assert "1 event(s) deleted after the last one" in out

    def test_it_names_a_back_dated_row_even_with_its_hash_made_again(self):
        last = AuditEvent.objects.order_by("seq").last()
        earlier = last.at - timedelta(days=400)
        _as_owner("UPDATE audit_auditevent SET at = %s WHERE id = %s", [earlier, last.pk])
        last.refresh_from_db()
        forged = chain.digest(last.seq, last.previous_hash, {f: getattr(last, f) for f in chain.FIELDS}, last.at)
        if connection.vendor == "postgresql":  # the database's own hash of the row
            with connection.cursor() as cursor:
                cursor.execute("SELECT audit_event_hash(e) FROM audit_auditevent e WHERE id = %s", [last.pk])
                forged = cursor.fetchone()[0]
        _as_owner("UPDATE audit_auditevent SET hash = %s WHERE id = %s", [forged, last.pk])
        ChainHead.objects.filter(pk=1).update(hash=forged)
        code, out = _verify()
        assert code == 1
        assert f"event #{last.pk} (chain position {last.seq}" in out and "is back-dated" in out
        assert "altered" not in out

    def test_the_daily_check_reports_a_break_on_healthz(self):
        heartbeat.beat()
        assert tasks.verify_chain() == 0
        assert self.client.get("/healthz").json()["audit"] == "ok"
        victim = AuditEvent.objects.order_by("seq").first()
        _as_owner("UPDATE audit_auditevent SET after = NULL WHERE id = %s", [victim.pk])
        assert tasks.verify_chain() == 1
        response = self.client.get("/healthz")
        assert response.status_code == 503
        assert f"event #{victim.pk}" in response.json()["audit"] and "altered" in response.json()["audit"]

    def test_the_database_and_python_compute_the_same_hash(self):
        """PostgreSQL's trigger hashes in SQL; the Python digest (SQLite's) gives the same value."""
        for e in AuditEvent.objects.order_by("seq"):
            assert chain.digest(e.seq, e.previous_hash, {f: getattr(e, f) for f in chain.FIELDS}, e.at) == e.hash


@pytest.mark.django_db(transaction=True)
def test_concurrent_appends_stay_one_chain():
    town = Municipality.objects.create(name="Chain", slug="chain", kind="town", county="Ozaukee", rule_pack="wi-chain")
    writers, each = 6, 5
    start = threading.Barrier(writers)
    errors = []

    def write():
        try:
            start.wait(timeout=30)
            for _ in range(each):
                with transaction.atomic():
                    record(acting_user=None, action="municipality.seal", obj=town)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=write) for _ in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    events = list(AuditEvent.objects.filter(action="municipality.seal").order_by("seq"))
    assert len(events) == writers * each
    verdict = chain.verify()
    assert verdict.ok, verdict.problems
    assert verdict.events == AuditEvent.objects.count()
    assert checks.check().ok


class AppRoleTests(BaseTestCase):
    """A real role that owns nothing, granted as `dogtag db grant` grants it, tries what the probe did."""

    def setUp(self):
        if connection.vendor != "postgresql":
            self.skipTest("roles are PostgreSQL's; SQLite's UPDATE trigger is tested in test_audit.py")
        import os

        self.role = f"dogtag_app_test_{os.getpid()}"
        call_command("db", "grant", self.role, "--create", stdout=io.StringIO())

    def tearDown(self):
        with connection.cursor() as cursor:
            cursor.execute("RESET ROLE")
            cursor.execute(f'DROP OWNED BY "{self.role}"')
            cursor.execute(f'DROP ROLE "{self.role}"')

    def _as_app(self, sql):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f'SET LOCAL ROLE "{self.role}"')
            cursor.execute(sql)
            return cursor.fetchall() if cursor.description else None

    def test_the_app_role_can_add_and_read_but_not_change_delete_truncate_or_disable(self):
        count = AuditEvent.objects.count()
        assert self._as_app("SELECT count(*) FROM audit_auditevent") == [(count,)]
        for sql in (
            "UPDATE audit_auditevent SET action = 'forged'",
            "DELETE FROM audit_auditevent",
            "TRUNCATE audit_auditevent CASCADE",
            "ALTER TABLE audit_auditevent DISABLE TRIGGER USER",
            "UPDATE audit_chainhead SET seq = 0",
        ):
            with self.subTest(sql), self.assertRaises(DatabaseError) as caught:
                self._as_app(sql)
            assert "permission denied" in str(caught.exception) or "must be owner" in str(caught.exception)
        with transaction.atomic(), connection.cursor() as cursor:  # the app's own writes still chain
            cursor.execute(f'SET LOCAL ROLE "{self.role}"')
            record(acting_user=None, action="municipality.seal", obj=self.benton)
        assert AuditEvent.objects.count() == count + 1
        assert chain.verify().ok

    def test_it_refuses_to_grant_a_superuser_or_an_owner(self):
        with self.assertRaisesMessage(CommandError, "is a superuser"):
            call_command("db", "grant", connection.settings_dict["USER"] or "postgres")

    def test_an_owner_without_createrole_is_told_how_to_make_the_role(self):
        """README's owner (`createuser -P`: no CREATEROLE) cannot create the app's role: a sentence, not
        PostgreSQL's "permission denied to create role" traceback."""
        owner = f"dogtag_owner_test_{self.role}"
        with connection.cursor() as cursor:
            cursor.execute(f'CREATE ROLE "{owner}" LOGIN NOCREATEROLE NOSUPERUSER')
            cursor.execute(f'SET ROLE "{owner}"')
        try:
            with self.assertRaisesMessage(CommandError, "CREATEROLE"):
                call_command("db", "grant", f"{self.role}_new", "--create", stdout=io.StringIO())
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET ROLE")
                cursor.execute(f'DROP ROLE "{owner}"')


@pytest.mark.django_db
def test_granting_a_role_on_sqlite_is_refused_with_a_sentence():
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL grants: AppRoleTests")
    with pytest.raises(CommandError, match="database roles are PostgreSQL's"):
        call_command("db", "grant", "dogtag_app")


class MigrateGrantsTests(BaseTestCase):
    def test_migrate_as_the_owner_creates_and_grants_the_app_role(self):
        if connection.vendor != "postgresql":
            self.skipTest("roles are PostgreSQL's")
        import os

        role = f"dogtag_app_migrate_{os.getpid()}"
        with self.settings(DATABASE_APP_ROLE=role, DATABASE_APP_PASSWORD="not-the-owners"):
            # The real command: post_migrate is sent only for apps with models, so the grant must listen
            # to one of those (the audit trail's), not to the ops app.
            call_command("migrate", verbosity=0, interactive=False)
        try:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT has_table_privilege(%s, 'audit_auditevent', 'INSERT'), "
                    "has_table_privilege(%s, 'audit_auditevent', 'UPDATE'), "
                    "has_table_privilege(%s, 'audit_auditevent', 'DELETE'), "
                    "has_table_privilege(%s, 'registry_animal', 'UPDATE'), "
                    "(SELECT rolcanlogin AND NOT rolsuper FROM pg_roles WHERE rolname = %s)",
                    [role] * 5,
                )
                assert cursor.fetchone() == (True, False, False, True, True)
        finally:
            with connection.cursor() as cursor:
                cursor.execute(f'DROP OWNED BY "{role}"')
                cursor.execute(f'DROP ROLE "{role}"')
