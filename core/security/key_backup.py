"""What a backup carries to open on another machine: the store key, wrapped, never the raw key.

Beside each backup `memvault-….db` lies `memvault-….db-keys` (0600): the key file's
wraps — the passphrase wrap (passphrase backend) and the recovery-key wrap — and the
store's id. A key kept in the OS keyring is not in it; its recovery wrap is. Restoring
a backup of another store (into an empty home, or over the empty store `memvault init`
made) unwraps the key with the passphrase or the recovery key and gives the home a key
file for the restored store.

Every secret is settled before a restore touches anything: which one is wanted (the
backup's, this machine's, or a new one for this machine) and how to give it is said in
the error when none can be had.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import sys
from pathlib import Path
from typing import Any

from memvault.core.security import keys, recovery_key
from memvault.core.vocabulary.errors import InvalidArgument, KeyUnavailable, WrongPassphrase

SUFFIX = "-keys"
_CARRIED = ("version", "backend", "store_id", "kdf", "wrap", "recovery")
NOTHING_CHANGED = "nothing was changed"
RECOVERY_KEY_HINT = "MEMVAULT_RECOVERY_KEY='XXXX-XXXX-…'"


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
    if not isinstance(carried, dict) or "store_id" not in carried or not ({"wrap", "recovery"} & set(carried)):
        raise InvalidArgument(f"{sidecar(backup).name} carries no wrapped key")
    return carried


def _on_terminal() -> bool:
    return sys.stdin is not None and sys.stdin.isatty()


def _line_on_stdin() -> str:
    """The first line of stdin when it is not a terminal ('' when there is none, or it cannot be read)."""
    if sys.stdin is None:
        return ""
    try:
        return sys.stdin.readline().strip()
    except (OSError, ValueError):  # closed, or a test harness that forbids reading
        return ""


def _ask_for_backup_secret(backup: Path) -> str:
    if _on_terminal():
        return getpass.getpass(f"recovery key or passphrase of the backup {backup.name}: ").strip()
    return _line_on_stdin()


def unlock(carried: dict[str, Any], secret: str) -> tuple[bytes, bool]:
    """The store key, unwrapped with the recovery key or else the passphrase; True when by the recovery key."""
    if "recovery" in carried and recovery_key.parse(secret) is not None:
        return recovery_key.unwrap(carried["recovery"], str(carried["store_id"]), secret), True
    if "wrap" not in carried:
        raise KeyUnavailable(
            "this backup's key was kept in an OS keyring, so only its recovery key opens it elsewhere: "
            f"give the recovery key ({RECOVERY_KEY_HINT}, on a terminal, or as one line on stdin); {NOTHING_CHANGED}"
        )
    try:
        return keys.unwrap_passphrase(carried, secret), False
    except WrongPassphrase:
        raise WrongPassphrase(
            f"that is neither the passphrase this backup was made with nor its recovery key; {NOTHING_CHANGED}"
        ) from None


def unlock_backup(
    backup: Path, carried: dict[str, Any], *, given: str | None = None, this_machine: str | None = None
) -> tuple[bytes, bool]:
    """The key of a backup of another store, and whether its recovery key opened it.

    `given` (a front end asked the person) is the only try when set. Otherwise, in order:
    MEMVAULT_RECOVERY_KEY; the passphrase already in hand — `this_machine` (this home's own
    passphrase, already used) or else MEMVAULT_PASSPHRASE — tried quietly, since people often
    keep one passphrase; a terminal prompt; one line on stdin.
    """
    if given is not None:
        return unlock(carried, given)
    recovery = os.environ.get("MEMVAULT_RECOVERY_KEY", "").strip()
    if recovery:
        return unlock(carried, recovery)
    in_hand = this_machine if this_machine is not None else os.environ.get("MEMVAULT_PASSPHRASE", "")
    tried = None
    if in_hand and "wrap" in carried:
        with contextlib.suppress(WrongPassphrase):
            return unlock(carried, in_hand)
        tried = "this machine's passphrase" if this_machine is not None else "MEMVAULT_PASSPHRASE"
    asked = _ask_for_backup_secret(backup)
    if asked:
        return unlock(carried, asked)
    if "wrap" not in carried:
        unlock(carried, "")  # raises: only the recovery key can open it, and says how to give it
    opening = (
        f"{tried} does not open the backup {backup.name}: give" if tried else f"to open the backup {backup.name}, give"
    )
    ways = "one line on stdin, or typed on a terminal" if tried else "MEMVAULT_PASSPHRASE, or one line on stdin"
    raise KeyUnavailable(
        f"{opening} its recovery key ({RECOVERY_KEY_HINT}) or the passphrase it was made with ({ways}); "
        f"{NOTHING_CHANGED}"
    )


def this_machines_passphrase(home: Path, given: str | None = None) -> str:
    """The passphrase that locks the store already in `home` (a restore opens it before replacing it)."""
    if given is not None:
        return given
    phrase = os.environ.get("MEMVAULT_PASSPHRASE", "")
    if not phrase and _on_terminal():
        phrase = getpass.getpass(f"passphrase of the store in {home} (this machine's): ")
    if not phrase:
        raise KeyUnavailable(
            f"restoring replaces the store in {home}, so memvault opens it first (to check the backup against it "
            "and keep it as a backup); it is locked with this machine's passphrase: give that passphrase in "
            f"MEMVAULT_PASSPHRASE (or run on a terminal to be asked); {NOTHING_CHANGED}"
        )
    return phrase


def needs_new_passphrase(carried: dict[str, Any], *, by_recovery_key: bool) -> bool:
    """Whether a backup restored into an empty home needs a passphrase chosen now (see `install`)."""
    if carried.get("backend") == "passphrase" and not by_recovery_key:
        return False
    return not (carried.get("backend") == "keyring" and keys.keyring_backend_name() is not None)


def new_passphrase_for_this_machine(given: str | None = None) -> str:
    """A new passphrase for the restored store here: given, MEMVAULT_PASSPHRASE, or asked twice on a terminal."""
    if given:
        return given
    phrase = os.environ.get("MEMVAULT_PASSPHRASE", "")
    if phrase:
        return phrase
    if _on_terminal():
        phrase = getpass.getpass("new passphrase for this machine (it will unlock the restored store here): ")
        if phrase and getpass.getpass("again: ") != phrase:
            raise WrongPassphrase(f"the two passphrases differ; {NOTHING_CHANGED}")
        if phrase:
            return phrase
    raise KeyUnavailable(
        "the recovery key opened the backup; this machine has no OS keyring, so the restored store needs a NEW "
        "passphrase for this machine (the old one is not asked for): set MEMVAULT_PASSPHRASE to the passphrase you "
        f"choose (or run on a terminal to be asked); {NOTHING_CHANGED}"
    )


def install(
    key_file: Path, carried: dict[str, Any], key: bytes, *, by_recovery_key: bool, new_passphrase: str | None = None
) -> bool:
    """A key file for the new home: the same wraps, the OS keyring (if the old store used one and one is
    here), or, after a recovery key opened it, a passphrase chosen now (the old one may be forgotten).
    True when it added an entry to the OS keyring (`forget_keyring_entry` removes it again)."""
    store_id = str(carried["store_id"])
    recovery = {"recovery": carried["recovery"]} if "recovery" in carried else {}
    if carried.get("backend") == "passphrase" and not by_recovery_key:
        keys.write_key_file(key_file, {name: carried[name] for name in _CARRIED if name in carried})
        return False
    backend = keys.keyring_backend_name() if carried.get("backend") == "keyring" else None
    if backend is not None:
        content = {"version": 1, "backend": "keyring", "keyring": backend, "store_id": store_id, **recovery}
    else:  # no keyring on this machine: the key is wrapped under a passphrase chosen now
        content = {
            "version": 1,
            "backend": "passphrase",
            "store_id": store_id,
            **keys.passphrase_wrap(key, store_id, passphrase=new_passphrase_for_this_machine(new_passphrase)),
        }
        content.update(recovery)
    return put(key_file, content, key)


def for_this_home(
    current: dict[str, Any], carried: dict[str, Any], key: bytes, passphrase: str | None
) -> dict[str, Any]:
    """The key file of a home whose store is replaced by another store's backup: the home keeps its way
    of keeping the key — this machine's keyring, or this machine's passphrase (at the same scrypt cost) —
    and the restored store's recovery wrap travels with it."""
    store_id = str(carried["store_id"])
    recovery = {"recovery": carried["recovery"]} if "recovery" in carried else {}
    if current["backend"] == "keyring":
        backend = keys.keyring_backend_name()
        if backend is None:
            raise KeyUnavailable(f"this machine's OS keyring is not reachable now; {NOTHING_CHANGED}")
        return {"version": 1, "backend": "keyring", "keyring": backend, "store_id": store_id, **recovery}
    if passphrase is None:
        raise KeyUnavailable(f"this machine's passphrase is needed; {NOTHING_CHANGED}")
    cost = int(current.get("kdf", {}).get("n", keys.DEFAULT_SCRYPT_N))
    wrapped = keys.passphrase_wrap(key, store_id, cost, passphrase)
    return {"version": 1, "backend": "passphrase", "store_id": store_id, **wrapped, **recovery}


def put(key_file: Path, content: dict[str, Any], key: bytes) -> bool:
    """Write a key file; a keyring one first puts the key in the OS keyring under the store's id.
    True when that keyring entry is new (it was not there before)."""
    added = False
    if content["backend"] == "keyring":
        import keyring  # noqa: PLC0415

        store_id = str(content["store_id"])
        added = keyring.get_password(keys.KEYRING_SERVICE, store_id) is None
        keyring.set_password(keys.KEYRING_SERVICE, store_id, key.hex())
    keys.write_key_file(key_file, content)
    return added


def forget_keyring_entry(store_id: str) -> None:
    """Remove a keyring entry a failed restore added (nothing else ever used it)."""
    with contextlib.suppress(Exception):
        import keyring  # noqa: PLC0415

        keyring.delete_password(keys.KEYRING_SERVICE, store_id)


def take_back(key_file: Path, added_keyring_entry: str | None) -> None:
    """Undo `install` after a failed restore into an empty home: its key file, and the keyring entry it added."""
    key_file.unlink(missing_ok=True)
    if added_keyring_entry:
        forget_keyring_entry(added_keyring_entry)
