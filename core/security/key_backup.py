"""What a backup carries to open on another machine: the store key, wrapped, never the raw key.

Beside each backup `memvault-….db` lies `memvault-….db-keys` (0600): the key file's
wraps — the passphrase wrap (passphrase backend) and the recovery-key wrap — and the
store's id. A key kept in the OS keyring is not in it; its recovery wrap is. Restoring
into an empty home unwraps the key with the passphrase or the recovery key and gives the
new home a key file of its own.
"""

from __future__ import annotations

import getpass
import json
import os
import sys
from pathlib import Path
from typing import Any

from memvault.core.security import keys, recovery_key
from memvault.core.vocabulary.errors import InvalidArgument, KeyUnavailable

SUFFIX = "-keys"
_CARRIED = ("version", "backend", "store_id", "kdf", "wrap", "recovery")


def sidecar(backup: Path) -> Path:
    return Path(f"{backup}{SUFFIX}")


def write_beside(backup: Path, key_file: Path) -> None:
    info = keys.read_key_info(key_file)
    carried = {name: info[name] for name in _CARRIED if name in info}
    keys.write_key_file(sidecar(backup), carried)


def read_beside(backup: Path) -> dict[str, Any]:
    try:
        carried: dict[str, Any] = json.loads(sidecar(backup).read_text())
    except FileNotFoundError:
        raise InvalidArgument(
            f"{sidecar(backup).name} is missing: copy it from beside the backup, it carries the wrapped key"
        ) from None
    except (OSError, ValueError):
        raise InvalidArgument(f"{sidecar(backup).name} is unreadable or damaged") from None
    if "store_id" not in carried or not ({"wrap", "recovery"} & set(carried)):
        raise InvalidArgument(f"{sidecar(backup).name} carries no wrapped key")
    return carried


def secret_from_person() -> str:
    """The recovery key or the passphrase: from the environment, a terminal prompt, or a line on stdin."""
    for name in ("MEMVAULT_RECOVERY_KEY", "MEMVAULT_PASSPHRASE"):
        if os.environ.get(name):
            return os.environ[name]
    if sys.stdin is not None and sys.stdin.isatty():
        return getpass.getpass("passphrase or recovery key of the backup: ")
    line = sys.stdin.readline().strip() if sys.stdin is not None else ""
    if not line:
        raise KeyUnavailable("give the passphrase or the recovery key: MEMVAULT_RECOVERY_KEY, or a line on stdin")
    return line


def unlock(carried: dict[str, Any], secret: str) -> tuple[bytes, bool]:
    """The store key, unwrapped with the recovery key or else the passphrase; True when by the recovery key."""
    if "recovery" in carried and recovery_key.parse(secret) is not None:
        return recovery_key.unwrap(carried["recovery"], str(carried["store_id"]), secret), True
    if "wrap" not in carried:
        raise KeyUnavailable("this backup's key is only in an OS keyring and its recovery key: give the recovery key")
    return keys.unwrap_passphrase(carried, secret), False


def install(
    key_file: Path, carried: dict[str, Any], key: bytes, *, by_recovery_key: bool, new_passphrase: str | None = None
) -> None:
    """A key file for the new home: the same wraps, the OS keyring (if the old store used one and one is
    here), or, after a recovery key opened it, a passphrase chosen now (the old one may be forgotten)."""
    store_id = str(carried["store_id"])
    recovery = {"recovery": carried["recovery"]} if "recovery" in carried else {}
    if carried.get("backend") == "passphrase" and not by_recovery_key:
        keys.write_key_file(key_file, {name: carried[name] for name in _CARRIED if name in carried})
        return
    backend = keys.keyring_backend_name() if carried.get("backend") == "keyring" else None
    if backend is not None:
        import keyring  # noqa: PLC0415

        keyring.set_password(keys.KEYRING_SERVICE, store_id, key.hex())
        content = {"version": 1, "backend": "keyring", "keyring": backend, "store_id": store_id, **recovery}
    else:  # no keyring on this machine: the key is wrapped under a passphrase chosen now
        content = {
            "version": 1,
            "backend": "passphrase",
            "store_id": store_id,
            **keys.passphrase_wrap(key, store_id, passphrase=new_passphrase),
        }
        content.update(recovery)
    keys.write_key_file(key_file, content)
