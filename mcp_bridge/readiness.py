"""Why a store cannot be opened right now, and the one command that fixes it.

The bridge answers `not_ready` with this (an assistant relays the message to the
person), `memory_status` carries it in its fields, and `memvault install` uses it
to say what to run before the client's first call. Only the standard library and
core's error types are imported: the CLI pays nothing for it.
"""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import dataclass
from pathlib import Path

from memvault.core.runtime.paths import VaultPaths, default_home
from memvault.core.vocabulary.errors import KeyUnavailable, StoreTooNew, WrongPassphrase

log = logging.getLogger("memvault.bridge")


@dataclass(frozen=True)
class NotReady:
    reason: str  # no_store | locked | keyring_unreachable | key_missing | schema_too_new | unavailable
    message: str  # for the person, relayed by the assistant: what is wrong and the command, in words
    command: str  # exactly the one command that fixes it

    def as_fields(self) -> dict[str, str]:
        return {"reason": self.reason, "message": self.message, "command": self.command}


def memvault_command(paths: VaultPaths, subcommand: str) -> str:
    """`memvault SUBCOMMAND`, naming the store's folder when it is not the default one."""
    if paths.home == default_home():
        return f"memvault {subcommand}"
    return f"memvault --home {_quoted(str(paths.home))} {subcommand}"


def _quoted(text: str) -> str:
    return text if text and all(c.isalnum() or c in "/._-~+" for c in text) else json.dumps(text)


def _upgrade_command() -> str:
    if getattr(sys, "frozen", False):  # a desktop bundle: upgraded by installing the newer bundle
        return "install the newest memvault app from the place this one came from"
    return f"{_quoted(sys.executable)} -m pip install --upgrade memvault"


def _key_backend(paths: VaultPaths) -> str | None:
    try:
        backend = json.loads(paths.key_file.read_text()).get("backend")
    except (OSError, ValueError, AttributeError):
        return None
    return backend if isinstance(backend, str) else None


def diagnose(exc: BaseException, paths: VaultPaths) -> NotReady:
    """The person-facing reason `exc` (raised while opening the store in `paths`) and its fix."""
    if not paths.store.exists() and not paths.key_file.exists():
        command = memvault_command(paths, "init")
        return NotReady(
            "no_store", f"memvault has no memory store yet. Run `{command}` in a terminal, then ask again.", command
        )
    if isinstance(exc, StoreTooNew):
        command = _upgrade_command()
        return NotReady(
            "schema_too_new",
            f"the memory store was written by a newer memvault than this one ({exc.message.split(':')[0]}). "
            f"Upgrade memvault: `{command}`; the store was not touched.",
            command,
        )
    backend = _key_backend(paths)
    if isinstance(exc, (KeyUnavailable, WrongPassphrase)) and backend == "passphrase":
        command = memvault_command(paths, "daemon")
        return NotReady(
            "locked",
            f"the memory store is locked: its passphrase is needed and no memvault daemon holds it open. "
            f"Run `{command}` in a terminal (it asks for the passphrase once and serves your assistants), "
            "then ask again.",
            command,
        )
    if isinstance(exc, KeyUnavailable) and backend == "keyring" and "holds no key" not in exc.message:
        command = memvault_command(paths, "daemon")
        return NotReady(
            "keyring_unreachable",
            f"the memory store's key is in the OS keyring, which this process cannot reach. Run `{command}` "
            "in your desktop session (where the keyring is unlocked), then ask again.",
            command,
        )
    command = memvault_command(paths, "doctor")
    reason = "key_missing" if isinstance(exc, KeyUnavailable) else "unavailable"
    return NotReady(
        reason,
        f"the memory store cannot be opened ({type(exc).__name__}). Run `{command}` in a terminal: "
        "it names the problem and its fix.",
        command,
    )


def store_exists(home: str | Path | None) -> bool:
    paths = VaultPaths.from_env(home)
    return paths.store.exists() or paths.key_file.exists()
