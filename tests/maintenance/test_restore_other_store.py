"""A backup of another store over the store here: what counts as empty, and a failed swap changes nothing.

The two-machine walk-throughs (init, then restore; refusal with records; no terminal) are in
tests/hardening/test_recovery.py; these look at the edges, in core, with the passphrase backend.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from maintkit import store_key

from memvault.core.maintenance import restore
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import SystemClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Conflict
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.core.vocabulary.requests import ProposeRequest

OTHER = "another machine's passphrase (fictional)"


def _other_backup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """A backup (with its -keys) of a store made in another home, under another passphrase."""
    with monkeypatch.context() as m:
        m.setenv("MEMVAULT_PASSPHRASE", OTHER)
        with Vault.open(tmp_path / "other", create=True, scrypt_n=2**12) as other:
            kept = other.add(OWNER, Draft.of(statement="Fictional: the canoe is stored under the porch"))["id"]
            return Path(other.backup(OWNER, to=str(tmp_path / "usb"))["path"]), str(kept)


def test_a_pending_proposal_is_enough_to_refuse(
    home: Path, vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No record yet, but an assistant's proposal waits for review: that is the person's, not init's."""
    vault.propose(LOCAL_ASSISTANT, ProposeRequest.of(candidates=[{"statement": "Fictional: tea at four"}]))
    vault.close()
    backup, _ = _other_backup(tmp_path, monkeypatch)
    with pytest.raises(Conflict, match=r"holds 1 proposal\. .* restore .* --replace"):
        restore.restore_backup(backup, home, clock=SystemClock(), backup_secret=OTHER)
    assert not list((home / "backups").glob("replaced-*"))


def test_a_failed_swap_puts_the_key_file_back_and_keeps_nothing_half_made(
    home: Path, vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault.close()  # the template store: made by init, no records
    backup, _ = _other_backup(tmp_path, monkeypatch)
    key_file = (home / "memvault.key.json").read_bytes()
    key = store_key(home)
    real_replace = os.replace

    def failing(src: object, dst: object) -> None:
        if Path(str(dst)) == home / "memvault.db":
            raise OSError("fictional: disk pulled out at the rename")
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(restore.os, "replace", failing)
    with pytest.raises(OSError, match="disk pulled out"):
        restore.restore_backup(backup, home, clock=SystemClock(), backup_secret=OTHER)
    monkeypatch.setattr(restore.os, "replace", real_replace)

    assert (home / "memvault.key.json").read_bytes() == key_file and store_key(home) == key
    assert not list((home / "backups").glob("replaced-*")) and not list(home.glob("memvault.db.restore-*"))
    with Vault.open(home) as reopened:
        assert reopened.status(OWNER)["counts"]["total"] == 0

    done = restore.restore_backup(backup, home, clock=SystemClock(), backup_secret=OTHER)  # and then it works
    assert done["records"] == 1 and done["replaced_other_store"] is not None
    assert store_key(home) != key
