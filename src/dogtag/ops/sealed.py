"""A backup's files sealed with the administrator's key (DOGTAG_BACKUP_KEY or DOGTAG_BACKUP_KEY_FILE):
Fernet from the maintained `cryptography` package (AES-128-CBC with an HMAC-SHA256 on each token),
one token per piece of a file, so a database larger than memory is sealed and opened as a stream.
A piece's length comes before it; the plain file's SHA-256 in the manifest catches a piece left out
or moved."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken

PIECE = 1 << 20
SUFFIX = ".fernet"
MAKE_A_KEY = "python -c 'from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())'"


class SealError(ValueError):
    """The key is missing, malformed, or does not open the backup."""


def fernet(key: str | None) -> Fernet:
    if not key:
        raise SealError(
            "a backup holds owners' personal data and live secrets (second-factor keys, tokens), so it is "
            "written only encrypted: set DOGTAG_BACKUP_KEY_FILE to a file holding a key made with "
            f"`{MAKE_A_KEY}` (README: Back up and restore), and keep a copy of the key away from the backups"
        )
    try:
        return Fernet(key.strip().encode())
    except ValueError:
        raise SealError(
            f"DOGTAG_BACKUP_KEY is not a backup key (32 url-safe base64-encoded bytes); make one with `{MAKE_A_KEY}`"
        ) from None


def seal(f: Fernet, plain: Path, sealed: Path) -> str:
    """Write `plain` sealed into `sealed` (0600); return the plain file's SHA-256."""
    digest = hashlib.sha256()
    with open(plain, "rb") as src, private_file(sealed) as dst:
        for piece in iter(lambda: src.read(PIECE), b""):
            digest.update(piece)
            token = f.encrypt(piece)
            dst.write(len(token).to_bytes(4, "big") + token)
    return digest.hexdigest()


def open_sealed(f: Fernet, sealed: Path, plain: Path) -> str:
    """Write `sealed` opened into `plain` (0600); return the plain file's SHA-256."""
    digest = hashlib.sha256()
    with open(sealed, "rb") as src, private_file(plain) as dst:
        while size := src.read(4):
            token = src.read(int.from_bytes(size, "big"))
            try:
                piece = f.decrypt(token)
            except InvalidToken:
                raise SealError(
                    f"{sealed.name} does not open with this key: the key is not the one the backup was "
                    "made with, or the file is damaged"
                ) from None
            digest.update(piece)
            dst.write(piece)
    return digest.hexdigest()


def private_file(path: Path):
    """A new file only its owner can read, whatever the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.fchmod(fd, 0o600)
    return os.fdopen(fd, "wb")
