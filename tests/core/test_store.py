"""The store on disk: encrypted from its first byte, private to the user, with memvault's pragmas."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import pytest
from corekit import SCRYPT_N

from memvault.core.store.sqlcipher.connection import PLAINTEXT_HEADER, IntegrityError, is_encrypted_file
from memvault.core.vault import Vault, store_exists
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import StoreUnavailable, WrongPassphrase
from memvault.core.vocabulary.model import OWNER

SECRETLESS_MARKER = "Quillfeather orchard keeps the blue ledger in the attic"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def created(fresh_home: Path) -> Path:
    """A store made by `Vault.open(create=True)` itself (not copied from the template)."""
    assert not store_exists(fresh_home)
    with Vault.open(fresh_home, create=True, scrypt_n=SCRYPT_N) as vault:
        vault.add(OWNER, Draft.of(statement=SECRETLESS_MARKER, domain="home"))
    return fresh_home


def test_the_store_file_does_not_start_with_the_sqlite_header(created: Path) -> None:
    store = created / "memvault.db"
    head = store.read_bytes()[:16]
    assert head != PLAINTEXT_HEADER
    assert not head.startswith(b"SQLite format 3")
    assert is_encrypted_file(store)


def test_plain_sqlite_cannot_read_the_store(created: Path) -> None:
    plain = sqlite3.connect(created / "memvault.db")
    try:
        with pytest.raises(sqlite3.DatabaseError):
            plain.execute("SELECT count(*) FROM sqlite_master").fetchone()
    finally:
        plain.close()


def test_memory_text_is_nowhere_in_the_files_in_clear(created: Path) -> None:
    needle = b"Quillfeather"
    for path in created.rglob("*"):
        if path.is_file():
            assert needle not in path.read_bytes(), path.name


def test_store_and_key_file_are_0600_and_folders_0700(created: Path) -> None:
    assert _mode(created / "memvault.db") == 0o600
    assert _mode(created / "memvault.key.json") == 0o600
    for folder in ("", "exports", "backups", "logs", "imports"):
        assert _mode(created / folder) == 0o700, folder or "home"


def test_wal_companions_are_private_too(vault: Vault) -> None:
    vault.add(OWNER, Draft.of(statement="The greenhouse thermostat is set to eighteen degrees", domain="home"))
    companions = [p for p in vault.paths.home.iterdir() if p.name.startswith("memvault.db-")]
    assert companions, "WAL mode should keep a -wal file while the store is open"
    for path in companions:
        assert _mode(path) == 0o600, path.name


def test_an_existing_loose_home_is_tightened_on_create(tmp_path: Path) -> None:
    home = tmp_path / "loose"
    home.mkdir(mode=0o755)
    os.chmod(home, 0o755)
    Vault.open(home, create=True, scrypt_n=SCRYPT_N).close()
    assert _mode(home) == 0o700


def test_pragmas_are_in_effect(vault: Vault) -> None:
    conn = vault.ctx.store.raw
    assert conn.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA secure_delete").fetchone()[0] == 1
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000


def test_foreign_keys_are_enforced(vault: Vault) -> None:
    with pytest.raises(IntegrityError):
        vault.ctx.store.raw.execute("INSERT INTO memory_usage (memory_id) VALUES ('m-does-not-exist')")


def test_opening_a_home_without_a_store_is_a_clear_error(fresh_home: Path) -> None:
    with pytest.raises(StoreUnavailable, match="memvault init"):
        Vault.open(fresh_home)
    assert not (fresh_home / "memvault.db").exists()


def test_two_open_vaults_share_the_store(home: Path) -> None:
    """Two processes (here two connections) read each other's writes through WAL."""
    with Vault.open(home) as first, Vault.open(home) as second:
        one = first.add(OWNER, Draft.of(statement="The spare house key is with the neighbour", domain="home"))["id"]
        assert second.get(OWNER, one)["memory"]["statement"].startswith("The spare house key")
        with second.ctx.reading():  # a long read in one process does not block the other's write
            two = first.add(OWNER, Draft.of(statement="The meter cupboard key is on the hook", domain="home"))["id"]
        assert {i["id"] for i in second.list_memories(OWNER)["items"]} == {one, two}


def test_a_damaged_store_is_refused_and_left_as_it_is(home: Path) -> None:
    store = home / "memvault.db"
    store.write_bytes(os.urandom(8192))
    before = store.read_bytes()
    with pytest.raises(WrongPassphrase, match="not a memvault store"):
        Vault.open(home)
    assert store.read_bytes() == before


def test_a_plaintext_sqlite_file_is_not_opened_as_a_store(home: Path) -> None:
    store = home / "memvault.db"
    store.unlink()
    plain = sqlite3.connect(store)
    plain.execute("CREATE TABLE notes (text TEXT)")
    plain.commit()
    plain.close()
    before = store.read_bytes()
    with pytest.raises(WrongPassphrase):
        Vault.open(home)
    assert store.read_bytes() == before and not is_encrypted_file(store)


def test_another_stores_file_is_refused_with_this_key(home: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    Vault.open(other, create=True, scrypt_n=SCRYPT_N).close()
    (home / "memvault.db").write_bytes((other / "memvault.db").read_bytes())
    with pytest.raises(WrongPassphrase):
        Vault.open(home)


def test_a_record_read_back_keeps_every_field_and_tag(vault: Vault) -> None:
    """Rows become records by position: MEMORY_COLUMNS must name Memory's fields in order."""
    from dataclasses import fields  # noqa: PLC0415

    from memvault.core.store.sqlcipher.memories import FROM_MEMORIES, MEMORY_COLUMNS  # noqa: PLC0415
    from memvault.core.vocabulary.model import Memory  # noqa: PLC0415

    with vault.ctx.reading() as conn:
        described = conn.raw.execute(f"SELECT {MEMORY_COLUMNS} FROM {FROM_MEMORIES} LIMIT 0").description
    assert [d[0] for d in described] == [f.name for f in fields(Memory)]
    added = vault.add(OWNER, Draft.of(statement="The spare key hangs by the shed door", domain="home", tags=["keys"]))
    record = vault.get(OWNER, added["id"])["memory"]
    assert record["statement"] == "The spare key hangs by the shed door"
    assert record["tags"] == ["keys"]
    assert (record["type"], record["status"], record["access_scope"]) == ("FACT", "current", "local_only")
