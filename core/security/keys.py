"""The store's key: a random 32-byte key kept in the OS keyring, or wrapped by a passphrase.

The key file next to the store records which backend holds the key, so memvault
never silently switches: a store whose key lives in the keyring is refused when
the keyring is unreachable rather than re-keyed behind the person's back.

Without a usable keyring (headless Linux gives keyring's `fail` backend) the key
is wrapped with AES-GCM under a key-encryption key derived from the passphrase
with scrypt; a wrong passphrase fails the authentication tag and touches nothing.
"""

from __future__ import annotations

import base64
import getpass
import hashlib
import json
import logging
import os
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memvault.core.security import recovery_key
from memvault.core.vocabulary.errors import KeyUnavailable, StoreUnavailable, WrongPassphrase

log = logging.getLogger("memvault.keys")

KEYRING_SERVICE = "memvault"
KEY_BYTES = 32
# scrypt cost: 2**17 * 8 * 128 B = 128 MiB, ~0.3 s here; paid once per process start.
DEFAULT_SCRYPT_N = 2**17
SCRYPT_R = 8
SCRYPT_P = 1
# Backends that do not keep a secret safely: fail stores nothing, the plaintext ones leak it.
_UNSAFE_KEYRING_BACKENDS = ("fail", "null", "plaintext", "keyrings.alt", "chainer")


@dataclass(frozen=True)
class KeyInfo:
    backend: str  # "keyring" or "passphrase"
    detail: str  # keyring backend name, or the KDF used


def keyring_backend_name() -> str | None:
    """The usable keyring backend's name, or None where only an unsafe one exists."""
    try:
        import keyring  # noqa: PLC0415 - importing keyring probes D-Bus; only when a key is needed

        backend = keyring.get_keyring()
    except Exception:
        return None
    name = f"{type(backend).__module__}.{type(backend).__name__}"
    if any(bad in name.lower() for bad in _UNSAFE_KEYRING_BACKENDS):
        return None
    return name


def _passphrase(confirm: bool, given: str | None = None) -> str:
    """The passphrase a front end handed over, else MEMVAULT_PASSPHRASE, else one asked on the terminal."""
    if given is not None:
        if not given:
            raise WrongPassphrase("an empty passphrase: nothing was opened or created")
        return given
    phrase = os.environ.get("MEMVAULT_PASSPHRASE")
    if phrase:
        return phrase
    if sys.stdin is not None and sys.stdin.isatty():
        phrase = getpass.getpass("memvault passphrase: ")
        if confirm and getpass.getpass("again: ") != phrase:
            raise WrongPassphrase("the two passphrases differ; nothing was created")
        if phrase:
            return phrase
    raise KeyUnavailable("no usable OS keyring here: set MEMVAULT_PASSPHRASE (or run on a terminal to be asked)")


def _derive(passphrase: str, salt: bytes, n: int) -> bytes:
    return hashlib.scrypt(
        passphrase.encode("utf-8"),
        salt=salt,
        n=n,
        r=SCRYPT_R,
        p=SCRYPT_P,
        maxmem=256 * 1024 * 1024,
        dklen=32,
    )


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def write_key_file(path: Path, content: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        json.dump(content, handle, indent=2)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def new_store_needs_passphrase() -> bool:
    """True where a new store's key would be wrapped by a passphrase (no safe keyring here, or forced)."""
    return os.environ.get("MEMVAULT_KEY_BACKEND") == "passphrase" or keyring_backend_name() is None


# A new store's recovery key, held in memory only until `take_new_recovery_key` shows it.
_NEW_RECOVERY_KEYS: dict[str, str] = {}


def take_new_recovery_key(key_file: Path) -> str | None:
    """The recovery key made with this store's key in this process, once (then it is forgotten)."""
    return _NEW_RECOVERY_KEYS.pop(str(key_file), None)


def _with_recovery(content: dict[str, Any], key_file: Path, key: bytes) -> dict[str, Any]:
    entry, text = recovery_key.wrap(key, str(content["store_id"]))
    _NEW_RECOVERY_KEYS[str(key_file)] = text
    return {**content, "recovery": entry}


def create_key(
    key_file: Path, store_id: str, *, scrypt_n: int = DEFAULT_SCRYPT_N, passphrase: str | None = None
) -> bytes:
    """Make the key of a new store, keep it in the best safe place, record where (and a recovery key).

    A `passphrase` given here is the person's choice of backend: the key is wrapped under it.
    """
    key = secrets.token_bytes(KEY_BYTES)
    forced = "passphrase" if passphrase is not None else os.environ.get("MEMVAULT_KEY_BACKEND")
    backend = None if forced == "passphrase" else keyring_backend_name()
    if backend is not None:
        import keyring  # noqa: PLC0415

        keyring.set_password(KEYRING_SERVICE, store_id, key.hex())
        content = {"version": 1, "backend": "keyring", "keyring": backend, "store_id": store_id}
        write_key_file(key_file, _with_recovery(content, key_file, key))
        log.info("store key kept in the OS keyring (%s)", backend)
        return key
    if forced == "keyring":
        raise KeyUnavailable("MEMVAULT_KEY_BACKEND=keyring but no safe OS keyring is reachable")
    content = {
        "version": 1,
        "backend": "passphrase",
        "store_id": store_id,
        **passphrase_wrap(key, store_id, scrypt_n, passphrase),
    }
    write_key_file(key_file, _with_recovery(content, key_file, key))
    log.info("store key wrapped with a passphrase (scrypt)")
    return key


def passphrase_wrap(
    key: bytes, store_id: str, scrypt_n: int = DEFAULT_SCRYPT_N, passphrase: str | None = None
) -> dict[str, Any]:
    """The key file's `kdf` and `wrap` for `key` under `passphrase` (asked for now when None)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: PLC0415

    salt = secrets.token_bytes(16)
    nonce = secrets.token_bytes(12)
    wrapped = AESGCM(_derive(_passphrase(True, passphrase), salt, scrypt_n)).encrypt(nonce, key, store_id.encode())
    return {
        "kdf": {"name": "scrypt", "n": scrypt_n, "r": SCRYPT_R, "p": SCRYPT_P, "salt": _b64(salt)},
        "wrap": {"name": "aes-256-gcm", "nonce": _b64(nonce), "key": _b64(wrapped)},
    }


def read_key_info(key_file: Path) -> dict[str, Any]:
    try:
        info: dict[str, Any] = json.loads(key_file.read_text())
    except FileNotFoundError:
        raise StoreUnavailable(f"the key file {key_file} is missing: the store cannot be opened") from None
    except (OSError, ValueError):
        raise StoreUnavailable(f"the key file {key_file} is unreadable or damaged") from None
    if info.get("backend") not in ("keyring", "passphrase"):
        raise StoreUnavailable(f"the key file {key_file} names no known key backend")
    return info


def load_key(key_file: Path, *, passphrase: str | None = None) -> bytes:
    """Unlock the key of an existing store from the backend its key file names (`passphrase`
    from a front end that asked for it; else the environment or the terminal)."""
    info = read_key_info(key_file)
    store_id = str(info["store_id"])
    if info["backend"] == "keyring":
        if keyring_backend_name() is None:
            raise KeyUnavailable(
                "this store's key is in the OS keyring, which is not reachable now "
                "(start a desktop session or unlock the keyring); memvault will not switch backends"
            )
        import keyring  # noqa: PLC0415

        stored = keyring.get_password(KEYRING_SERVICE, store_id)
        if not stored:
            raise KeyUnavailable("the OS keyring holds no key for this store")
        return bytes.fromhex(stored)
    return unwrap_passphrase(info, _passphrase(False, passphrase))


def unwrap_passphrase(info: dict[str, Any], passphrase: str) -> bytes:
    """The store key from a key file's (or a backup's key sidecar's) passphrase wrap."""
    from cryptography.exceptions import InvalidTag  # noqa: PLC0415
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: PLC0415

    kdf, wrap = info["kdf"], info["wrap"]
    kek = _derive(passphrase, base64.b64decode(kdf["salt"]), int(kdf["n"]))
    try:
        return AESGCM(kek).decrypt(
            base64.b64decode(wrap["nonce"]), base64.b64decode(wrap["key"]), str(info["store_id"]).encode()
        )
    except InvalidTag:
        raise WrongPassphrase("wrong passphrase: the store was not opened and nothing changed") from None


def describe(key_file: Path) -> KeyInfo:
    info = read_key_info(key_file)
    if info["backend"] == "keyring":
        return KeyInfo("keyring", str(info.get("keyring", "")))
    return KeyInfo("passphrase", f"scrypt n={info['kdf']['n']}")
