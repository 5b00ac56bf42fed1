"""A store whose key lives in the OS keyring: backups restore with it, and --delete-data forgets it.

The keyring here is an in-memory backend of this test (a real Secret Service needs a
desktop session); memvault reaches it through the `keyring` API as it would the real one.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from memory_keyring import MemoryKeyring

from memvault.core.security import keys
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import ArchiveRequest
from memvault.desktop.cli import main


@pytest.fixture
def ring(monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    memory = MemoryKeyring()
    keyring.set_keyring(memory)
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")  # nothing but the keyring can unlock this store
    try:
        yield memory
    finally:
        keyring.set_keyring(previous)


def test_keyring_store_backs_up_restores_and_is_forgotten_on_delete(
    ring: MemoryKeyring, fresh_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with Vault.open(fresh_home, create=True) as vault:
        assert keys.describe(vault.paths.key_file).backend == "keyring"
        kept = vault.add(OWNER, Draft.of(statement="Fictional: the lighthouse keeper's cat is called Pilot"))["id"]
        backup = vault.backup(OWNER)["path"]
        vault.archive(OWNER, ArchiveRequest.of(id=kept))
    assert len(ring.secrets) == 1

    Vault.restore_backup(backup, fresh_home)
    with Vault.open(fresh_home) as vault:
        assert vault.get(OWNER, kept)["memory"]["status"] == "current"

    user = fresh_home.parent / "user"  # uninstall also clears app folders: keep them this test's own
    for name in ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"):
        monkeypatch.setenv(name, str(user / name.lower()))
    monkeypatch.setattr("sys.stdin", io.StringIO("ERASE\n"))
    assert main(["uninstall", "--delete-data"]) == 0
    assert "removed the store key from the OS keyring" in capsys.readouterr().out
    assert ring.secrets == {} and not fresh_home.exists()
