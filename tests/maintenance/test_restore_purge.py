"""Issue 13, restore against purge: a restore can never bring back what was purged.

- A restore killed right after the swap leaves a store without the purged record
  (tombstones are applied to the private copy before it becomes the live store).
- doctor checks every tombstone, the store's and each backup's: a purged record
  that is back (an old file copied over the store by hand) is found, and --fix
  purges it again.
- Backups are recorded relative to the home: after the home folder moves, a purge
  still reaches them.
"""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

from maintkit import NEEDLE, SECRET_STATEMENT, as_bytes, dump_db, run_python, store_key

from memvault.core.maintenance import doctor
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import SystemClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import NotFound
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import PurgeRequest

KILLED_AFTER_SWAP = """
import os, signal, sys
from memvault.core.maintenance import restore
real_fsync_dir = restore.fsync_dir
def fsync_then_die(folder):
    real_fsync_dir(folder)
    os.kill(os.getpid(), signal.SIGKILL)  # the restored file is in place; nothing after this runs
restore.fsync_dir = fsync_then_die
from memvault.core.vault import Vault
Vault.restore_backup(sys.argv[1], sys.argv[2])
"""


def added(vault: Vault, statement: str) -> str:
    answer = vault.add(OWNER, Draft.of(statement=statement))
    assert answer["outcome"] == "added", answer
    return str(answer["id"])


def _purge(vault: Vault, memory_id: str) -> dict[str, object]:
    request = vault.request_purge(OWNER, PurgeRequest.of(id=memory_id, reason="privacy"))
    return vault.confirm_purge(OWNER, request["request_id"])


def _gone(home: Path, memory_id: str) -> bool:
    with Vault.open(home) as vault:
        try:
            vault.get(OWNER, memory_id)
        except NotFound:
            return True
    return False


def test_a_restore_killed_after_the_swap_does_not_bring_a_purged_record_back(home: Path) -> None:
    with Vault.open(home) as vault:
        secret = added(vault, SECRET_STATEMENT)
        added(vault, "Fictional: the beehive sits behind the pear tree")
        before = Path(vault.backup(OWNER)["path"])
        kept_aside = home.parent / "copy-before-purge.db"
        shutil.copy2(before, kept_aside)  # a copy memvault does not know of: the purge cannot reach it
        _purge(vault, secret)
    process = run_python(KILLED_AFTER_SWAP, str(kept_aside), str(home))
    process.wait(timeout=300)
    assert process.returncode == -signal.SIGKILL, process.stderr.read() if process.stderr else ""
    assert _gone(home, secret)
    assert NEEDLE not in as_bytes(dump_db(home / "memvault.db", store_key(home)))
    report = doctor.run(home, clock=SystemClock())
    assert report["ok"], report


def test_doctor_finds_a_purged_record_that_came_back_and_fix_purges_it_again(home: Path) -> None:
    with Vault.open(home) as vault:
        secret = added(vault, SECRET_STATEMENT)
        old_copy = home.parent / "old-store.db"
        vault.backup(OWNER)  # a recorded backup: the purge rewrites it and leaves the tombstone in it
        shutil.copy2(Path(vault.backup(OWNER, to=str(home.parent / "pre.db"))["path"]), old_copy)
        _purge(vault, secret)
    shutil.copy2(old_copy, home / "memvault.db")  # a person copies an old store file back by hand
    assert not _gone(home, secret)
    found = {c["name"]: c for c in doctor.run(home, clock=SystemClock())["checks"]}
    assert not found["tombstones"]["ok"] and "purged" in found["tombstones"]["detail"]
    fixed = {c["name"]: c for c in doctor.run(home, fix=True, clock=SystemClock())["checks"]}
    assert fixed["tombstones"]["ok"]
    assert _gone(home, secret)


def test_a_purge_reaches_backups_after_the_home_folder_moved(home: Path) -> None:
    with Vault.open(home) as vault:
        secret = added(vault, SECRET_STATEMENT)
        backup = Path(vault.backup(OWNER)["path"])
    assert backup.is_relative_to(home)
    moved = home.parent / "moved-home"
    shutil.move(home, moved)
    with Vault.open(moved) as vault:
        result = _purge(vault, secret)
        listed = vault.list_backups(OWNER)
    assert str(moved / "backups" / backup.name) in str(result)
    assert all(row["exists"] and Path(row["path"]).is_relative_to(moved) for row in listed)
    assert NEEDLE not in as_bytes(dump_db(moved / "backups" / backup.name, store_key(moved)))
