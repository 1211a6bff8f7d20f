"""The ledger's Ed25519 signing key: made once by `umpire-ledger keygen`, kept in a PEM file."""

from __future__ import annotations

import os
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding, NoEncryption, PrivateFormat, load_pem_private_key,
)

from wargame.errors import WargameError
from wargame.files import TooLarge, read_capped

MAX_KEY_FILE_BYTES = 64 * 1024
"""An Ed25519 PEM key is 119 bytes; a key file past this cap is not one (read while counting: /dev/zero)."""


class KeyFileError(WargameError):
    """The key file cannot be used."""


def write_new_key(path: Path) -> Ed25519PrivateKey:
    """A new key written to `path` readable by its owner only; refuses to replace an existing key."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    # O_EXCL: a key that signed receipts must never be overwritten by mistake.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
        out.flush()
        os.fsync(out.fileno())
    return key


def load_private_key(path: Path) -> Ed25519PrivateKey:
    """The signing key in a PEM file; KeyFileError saying why not."""
    try:
        key = load_pem_private_key(read_capped(path, MAX_KEY_FILE_BYTES), password=None)
    except TooLarge as e:
        raise KeyFileError(f"{path}: {e.found}: a PEM key file has at most {MAX_KEY_FILE_BYTES:,}") from None
    except (ValueError, TypeError) as e:
        raise KeyFileError(f"{path}: not an unencrypted PEM private key: {e}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{path}: not an Ed25519 key")
    return key
