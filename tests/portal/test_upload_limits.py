"""Uploads cannot exhaust the server (issue 27, finding 1): a photo declaring more pixels than
DOGTAG_UPLOAD_MAX_PIXELS is refused from its header before a pixel is decoded, one address may
send DOGTAG_UPLOAD_LIMIT files a window, and a replaced file leaves storage. Through the whole
middleware stack (the test client), on SQLite and PostgreSQL."""

import struct
import zlib

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import override_settings

from dogtag.portal import actions
from tests.base import BaseTestCase
from tests.portal.helpers import FULL, JPEG, MEDIA, PNG


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def bomb(width=12_000, height=12_000) -> bytes:
    """A valid one-bit PNG of width × height white pixels: a few kilobytes that decode into
    width × height bytes (144 MB by default)."""
    row = b"\x00" + b"\x00" * ((width + 7) // 8)
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


@MEDIA
class UploadLimitTests(BaseTestCase):
    def setUp(self):
        self.app = actions.start_application(municipality=self.benton, email="dana@example.org")

    def send(self, content, name="photo.png", address="203.0.113.7", field="rabies_certificate_file"):
        upload = SimpleUploadedFile(name, content)
        return self.client.post(
            f"/apply/a/{self.app.token}/", {**FULL, "step": "save", field: upload}, REMOTE_ADDR=address
        )

    def test_a_small_png_declaring_144_megapixels_is_refused_from_its_header(self):
        content = bomb()
        self.assertLess(len(content), 500_000)
        r = self.send(content)
        self.assertContains(r, "12000 × 12000 pixels (144 megapixels); the largest accepted is 50 megapixels")
        self.app.refresh_from_db()
        self.assertFalse(self.app.rabies_certificate)

    def test_a_png_past_pillows_own_bomb_limit_is_refused_too(self):
        r = self.send(bomb(20_000, 20_000))
        self.assertContains(r, "megapixels")
        self.app.refresh_from_db()
        self.assertFalse(self.app.rabies_certificate)

    @override_settings(DOGTAG_UPLOAD_LIMIT=3)
    def test_one_address_may_send_so_many_files_a_window_and_another_address_is_not_held_up(self):
        for _ in range(3):
            r = self.send(PNG)
            self.assertNotContains(r, "send this one again later")
        r = self.send(PNG)
        self.assertContains(r, "More than 3 files were sent from your address within 60 minutes")
        r = self.send(JPEG, "photo.jpg", address="198.51.100.9", field="altered_evidence_file")
        self.assertNotContains(r, "send this one again later")
        self.app.refresh_from_db()
        self.assertTrue(self.app.altered_evidence.name.endswith(".jpg"))

    def test_a_replaced_file_is_deleted_from_storage(self):
        self.send(PNG)
        self.app.refresh_from_db()
        first = self.app.rabies_certificate.name
        self.assertTrue(default_storage.exists(first))
        with self.captureOnCommitCallbacks(execute=True):
            self.send(JPEG, "photo.jpg")
        self.app.refresh_from_db()
        self.assertNotEqual(self.app.rabies_certificate.name, first)
        self.assertTrue(default_storage.exists(self.app.rabies_certificate.name))
        self.assertFalse(default_storage.exists(first))

    def test_two_uploads_racing_for_one_application_leave_only_the_kept_file(self):
        """Two requests load the application before either saves (simulated in turn: the second
        works on a copy read before the first committed); only the file the record keeps remains."""
        import os
        import tempfile

        from django.core.files.uploadedfile import SimpleUploadedFile as Upload

        from dogtag.portal.models import Application

        with override_settings(MEDIA_ROOT=tempfile.mkdtemp(prefix="dogtag-race-")):
            first, second = Application.objects.get(pk=self.app.pk), Application.objects.get(pk=self.app.pk)
            for copy in (first, second):
                with self.captureOnCommitCallbacks(execute=True):
                    actions.save_draft(copy, post=FULL, files={"rabies_certificate_file": Upload("p.png", PNG)})
            self.app.refresh_from_db()
            kept = self.app.rabies_certificate.name
            self.assertTrue(default_storage.exists(kept))
            folder = os.path.dirname(default_storage.path(kept))
            self.assertEqual(sorted(os.listdir(folder)), [os.path.basename(kept)])


@pytest.mark.django_db(transaction=True)
def test_two_uploads_at_once_on_two_connections_leave_only_the_kept_file(tmp_path, settings):
    """Two real threads, each on its own connection, save the same application read before either
    saved; the row lock makes the second see and replace the first's file."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's in-memory test database is one connection; the turn-by-turn test covers it")
    import os
    import threading

    from django.core.files.uploadedfile import SimpleUploadedFile as Upload

    from dogtag.portal.models import Application
    from dogtag.registry.models import Municipality

    settings.MEDIA_ROOT = str(tmp_path)
    town = Municipality.objects.create(
        name="Benton", slug="benton", kind="town", county="Lafayette", rule_pack="wi-benton"
    )
    app = actions.start_application(municipality=town, email="dana@example.org")
    copies = [Application.objects.get(pk=app.pk) for _ in range(2)]
    start, errors = threading.Barrier(2), []

    def save(copy):
        try:
            start.wait(timeout=30)
            actions.save_draft(copy, post=FULL, files={"rabies_certificate_file": Upload("p.png", PNG)})
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(c,)) for c in copies]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    app.refresh_from_db()
    assert sorted(os.listdir(os.path.dirname(default_storage.path(app.rabies_certificate.name)))) == [
        os.path.basename(app.rabies_certificate.name)
    ]
