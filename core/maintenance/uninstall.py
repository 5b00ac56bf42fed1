"""What `memvault uninstall` removes besides client registrations (those are desktop/clients.py's).

Always (a full uninstall): autostart entries, the desktop launcher entry,
caches, the runtime folder (the daemon's socket) and the state folder. Only
with `delete_data`: the store, its key file, backups (also those recorded
outside MEMVAULT_HOME), exports, logs and imports, and the store's key in the
OS keyring. Files in MEMVAULT_HOME that memvault did not make are left, and
said so.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from memvault.core.maintenance import backup_files
from memvault.core.maintenance.files import side_files
from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import keys
from memvault.core.security.kill_switch import machine_file
from memvault.core.store.engines import SHARED_STORE, is_shared, leave, open_store, store_exists
from memvault.core.vocabulary.errors import MemvaultError

log = logging.getLogger("memvault.maintenance")
CONFIRM_WORD = "ERASE"


@dataclass(frozen=True)
class Removal:
    path: Path
    what: str


def _autostart_entries() -> list[Removal]:
    config = Path(platformdirs.user_config_dir())
    found = [Removal(p, "autostart entry") for p in sorted((config / "autostart").glob("memvault*.desktop"))]
    apps = Path(platformdirs.user_data_dir()) / "applications"
    found += [Removal(p, "desktop launcher entry") for p in sorted(apps.glob("memvault*.desktop"))]
    icons = Path(platformdirs.user_data_dir()) / "icons" / "hicolor"
    found += [Removal(p, "launcher icon") for p in sorted(icons.glob("*/apps/memvault.*"))]
    if sys.platform == "darwin":
        agents = Path.home() / "Library" / "LaunchAgents"
        found += [Removal(p, "login item") for p in sorted(agents.glob("*memvault*.plist"))]
    return found


def _app_folders(paths: VaultPaths) -> list[Removal]:
    candidates = [
        (Path(platformdirs.user_cache_dir("memvault")), "cache folder"),
        (Path(platformdirs.user_state_dir("memvault")), "state folder"),
        (_runtime_dir(), "runtime folder (daemon socket)"),
        (Path(platformdirs.user_config_dir("memvault")), "config folder"),
    ]
    # Never propose a folder that holds the data unless data is going anyway.
    return [Removal(p, what) for p, what in candidates if p.exists() and not _inside(paths.home, p)]


def _runtime_dir() -> Path:
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset; the fallback is fine
        warnings.simplefilter("ignore")
        return Path(platformdirs.user_runtime_dir("memvault"))


def _inside(child: Path, parent: Path) -> bool:
    try:
        child.resolve().relative_to(parent.resolve())
    except ValueError:
        return False
    return True


def _outside_backups(paths: VaultPaths) -> tuple[list[Removal], list[str]]:
    """Backups recorded in the store that live outside MEMVAULT_HOME (needs the key to read the list)."""
    if not store_exists(paths):
        return [], []
    try:
        conn = open_store(paths, keys.load_key(paths.key_file))
    except MemvaultError as exc:
        return [], [f"could not read the list of backups kept elsewhere ({exc.message})"]
    try:
        rows = conn.backups.known(paths.home, backup_files.home_id(paths))
    except conn.engine.errors:
        return [], ["could not read the list of backups kept elsewhere (the store is damaged)"]
    finally:
        conn.close()
    found = []
    for row in rows:
        path = Path(row["path"])
        if path.is_file() and not _inside(path, paths.home):
            found += [Removal(path, "backup outside MEMVAULT_HOME")]
            found += [Removal(side, "backup journal") for side in side_files(path)]
    return found, []


def _data(paths: VaultPaths) -> tuple[list[Removal], list[str]]:
    removals, notes = _outside_backups(paths)
    removals += [Removal(p, "store") for p in [paths.store, *side_files(paths.store)] if p.exists()]
    if is_shared(paths):  # the shared store itself is the other machines' too: left untouched
        removals.append(Removal(paths.home / SHARED_STORE, "the shared store's address"))
        notes.append("the shared PostgreSQL store is left as it is: it serves your other machines too")
    if paths.key_file.exists():
        removals.append(Removal(paths.key_file, "key file"))
    if machine_file(paths).exists():
        removals.append(Removal(machine_file(paths), "this machine's kill switch"))
    for folder, what in (
        (paths.backups, "backups"),
        (paths.exports, "exports (plaintext)"),
        (paths.logs, "logs"),
        (paths.imports, "imports"),
        (paths.home / "run", "daemon lock and socket folder"),
    ):
        if folder.exists():
            removals.append(Removal(folder, what))
    return removals, notes


def plan(paths: VaultPaths, *, delete_data: bool) -> tuple[list[Removal], list[str]]:
    """What a full uninstall would remove, and notes on what it will not."""
    removals = _autostart_entries() + _app_folders(paths)
    notes: list[str] = []
    if delete_data:
        data, data_notes = _data(paths)
        removals += data
        notes += data_notes
    elif paths.home.exists():
        notes.append(f"kept: the store, key and backups in {paths.home} (add --delete-data to remove them)")
    return removals, notes


def keyring_entry(paths: VaultPaths) -> str | None:
    """The store id whose key the OS keyring holds, if the store uses the keyring."""
    try:
        info = keys.read_key_info(paths.key_file)
    except MemvaultError:
        return None
    return str(info["store_id"]) if info["backend"] == "keyring" else None


def apply(paths: VaultPaths, removals: list[Removal], *, delete_data: bool) -> list[str]:
    done: list[str] = []
    store_id = keyring_entry(paths) if delete_data else None
    if delete_data and is_shared(paths):
        leave(paths)
        done.append(f"removed the shared store's address and its kept password: {paths.home / SHARED_STORE}")
    for removal in removals:
        target = removal.path
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()
        else:
            continue
        done.append(f"removed {removal.what}: {target}")
    if store_id:
        done.append(_forget_key(store_id))
    if delete_data and paths.home.is_dir():
        left = sorted(str(p) for p in paths.home.iterdir())
        if left:
            done.append(f"kept {paths.home}: it holds files memvault did not make: {', '.join(left)}")
        else:
            os.rmdir(paths.home)
            done.append(f"removed the folder {paths.home}")
    return done


def _forget_key(store_id: str) -> str:
    try:
        import keyring  # noqa: PLC0415

        keyring.delete_password(keys.KEYRING_SERVICE, store_id)
    except Exception as exc:  # keyring raises backend-specific errors
        return f"could not remove the store key from the OS keyring ({type(exc).__name__}): remove it by hand"
    return "removed the store key from the OS keyring"
