"""The recovery key: a second way to unwrap the store key, for a new machine.

Shown once at `memvault init` (never stored): 160 random bits as 32 letters and digits
in eight groups (`K7QM-2XPA-…`), easy to print or write down. The key file keeps the
store key wrapped under it (AES-256-GCM; the key-encryption key comes from HKDF-SHA256
over the recovery key, which is random, so no slow KDF is needed), and so does every
backup's key sidecar: with the backup and this key a store opens on any machine.
"""

from __future__ import annotations

import base64
import secrets
from typing import Any

from memvault.core.vocabulary.errors import WrongPassphrase

RAW_BYTES = 20
GROUP = 4
_INFO = b"memvault recovery key v1"
# Letters people misread for the digits base32 leaves out.
_READ_AS = str.maketrans({"0": "O", "1": "I", "8": "B", "9": "G"})


def _kek(raw: bytes, salt: bytes) -> bytes:
    from cryptography.hazmat.primitives import hashes  # noqa: PLC0415 - only at init and on recovery
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF  # noqa: PLC0415

    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=_INFO).derive(raw)


def _text(raw: bytes) -> str:
    letters = base64.b32encode(raw).decode("ascii")
    return "-".join(letters[i : i + GROUP] for i in range(0, len(letters), GROUP))


def parse(text: str) -> bytes | None:
    """The raw recovery key from what a person typed (case, spaces and dashes do not matter)."""
    letters = "".join(text.split()).replace("-", "").upper().translate(_READ_AS)
    if len(letters) != RAW_BYTES * 8 // 5:
        return None
    try:
        return base64.b32decode(letters)
    except ValueError:
        return None


def wrap(key: bytes, store_id: str) -> tuple[dict[str, Any], str]:
    """The key file's entry for a new recovery key, and the key itself to show once."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: PLC0415

    raw, salt, nonce = secrets.token_bytes(RAW_BYTES), secrets.token_bytes(16), secrets.token_bytes(12)
    wrapped = AESGCM(_kek(raw, salt)).encrypt(nonce, key, store_id.encode())
    entry = {
        "kdf": "hkdf-sha256",
        "salt": base64.b64encode(salt).decode(),
        "nonce": base64.b64encode(nonce).decode(),
        "key": base64.b64encode(wrapped).decode(),
    }
    return entry, _text(raw)


def unwrap(entry: dict[str, Any], store_id: str, text: str) -> bytes:
    from cryptography.exceptions import InvalidTag  # noqa: PLC0415
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: PLC0415

    raw = parse(text)
    if raw is None:
        raise WrongPassphrase("that is not a recovery key (32 letters and digits in groups of four)")
    kek = _kek(raw, base64.b64decode(entry["salt"]))
    try:
        return AESGCM(kek).decrypt(base64.b64decode(entry["nonce"]), base64.b64decode(entry["key"]), store_id.encode())
    except InvalidTag:
        raise WrongPassphrase("wrong recovery key: nothing was restored") from None
