"""The kill switch's two positions, and the one in force.

- This machine's position is a file in the home (`kill-switch`, 0600). It binds this machine alone,
  whatever store the home uses, and no other machine can change it.
- The store's position is its `kill_switch` setting: every machine using the store honours it.

The stronger of the two is in force (off < remote < all). Both are read at every check, so a change
made by another process, or by another machine for the store's, counts at the next call. On a store
only this machine uses the two are one: `Vault.set_kill_switch` writes both.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from memvault.core.runtime.paths import VaultPaths
from memvault.core.vocabulary.errors import EnvironmentProblem
from memvault.core.vocabulary.model import KillSwitch

MACHINE_FILE = "kill-switch"
_ORDER = (KillSwitch.OFF, KillSwitch.REMOTE, KillSwitch.ALL)


def stronger(one: KillSwitch, other: KillSwitch) -> KillSwitch:
    return max(one, other, key=_ORDER.index)


def machine_file(paths: VaultPaths) -> Path:
    return paths.home / MACHINE_FILE


def read_machine(paths: VaultPaths) -> KillSwitch | None:
    """This machine's position: off when never set; None when the file cannot be read or holds
    anything but a position. Read at every check: plain descriptor calls keep it near 8 µs."""
    try:
        descriptor = os.open(machine_file(paths), os.O_RDONLY)
    except FileNotFoundError:
        return KillSwitch.OFF
    except OSError:
        return None
    try:
        raw = os.read(descriptor, 64)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    try:
        return KillSwitch(raw.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        return None


def _replace(temporary: Path, target: Path, attempts: int = 5) -> None:
    """Rename over the position file. On Windows that fails while another process has the file open
    for its check (a few microseconds each): try again a few times before giving up."""
    for attempt in range(attempts):
        try:
            os.replace(temporary, target)
            return
        except PermissionError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.01 * (attempt + 1))


def write_machine(paths: VaultPaths, position: KillSwitch) -> None:
    """Replace this machine's position at once: a running server reads the old one or the new one,
    never half a file (a private temporary file renamed over it)."""
    target = machine_file(paths)
    temporary = target.with_name(f".{MACHINE_FILE}.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(position.value + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        _replace(temporary, target)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise EnvironmentProblem(
            f"this machine's kill switch could not be written to {target}: {exc.strerror}"
        ) from None


@dataclass(frozen=True)
class Positions:
    machine: KillSwitch
    store: KillSwitch
    machine_unreadable: bool = False  # the file could not be read: this machine counts as `all`

    @classmethod
    def read(cls, paths: VaultPaths, stored: object) -> Positions:
        """This machine's position as its file says now, beside the store's (`stored`, its setting's value)."""
        machine = read_machine(paths)
        # A kill switch that cannot be read stops everything rather than nothing.
        return cls(machine or KillSwitch.ALL, KillSwitch(str(stored)), machine is None)

    @property
    def in_force(self) -> KillSwitch:
        return stronger(self.machine, self.store)

    @property
    def held_by(self) -> str:
        """Which position puts the one in force in place, in words (for messages and the tray)."""
        if self.in_force is KillSwitch.OFF:
            return "neither"
        if self.machine == self.store:
            return "this machine and store-wide"
        return "this machine" if self.machine is self.in_force else "store-wide"
