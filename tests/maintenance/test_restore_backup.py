"""Restore: verified before anything is touched, the old store kept, every table back as it was."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from maintkit import digests, dump_db, open_db, store_key

from memvault.core.store.sqlcipher import migrations
from memvault.core.store.sqlcipher.connection import open_connection
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument, StoreTooNew, StoreUnavailable
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import ArchiveRequest
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.desktop.cli import main
from memvault.desktop.daemon import status as daemon_status

# Tables a restore is allowed to add to: its own event and the backups it knows of.
GROWS = ("events", "backups", "sqlite_sequence")


def test_round_trip_gives_back_every_table(home: Path, filled: dict[str, str], vault: Vault) -> None:
    vault.search(OWNER, SearchRequest.of(query="allotment beds"))  # a retrieval_log row and usage counts
    backup = Path(vault.backup(OWNER)["path"])
    key = store_key(home)
    before = dump_db(home / "memvault.db", key)
    vault.add(OWNER, Draft.of(statement="Fictional: added after the backup, gone after the restore"))
    vault.archive(OWNER, ArchiveRequest.of(id=filled["garden"]))
    vault.close()

    result = Vault.restore_backup(backup, home)

    after = dump_db(home / "memvault.db", key)
    assert set(after) == set(before)
    for table in before:
        if table not in GROWS:
            assert after[table] == before[table], table
    # the backup was taken just before its own `backup_made` event was written
    at_backup = [e for e in before["events"] if e[4] != "backup_made"]
    assert set(at_backup) < set(after["events"])
    assert [e[4] for e in after["events"] if e not in at_backup] == ["restored_from_backup"]
    kept = Path(result["previous_store_kept_as"])
    assert kept.is_file() and kept.parent == home / "backups"
    assert "Fictional: added after the backup" in str(dump_db(kept, key)["memories"])
    with Vault.open(home) as reopened:
        known = {r["path"]: r["kind"] for r in reopened.list_backups(OWNER)}
        assert known == {str(backup): "manual", str(kept): "pre-restore"}
        assert reopened.get(OWNER, filled["garden"])["memory"]["status"] == "current"
    assert not list(home.glob("memvault.db.restore-*"))
    assert not (home / "memvault.db-wal").exists() or (home / "memvault.db-wal").stat().st_size == 0


def _plaintext_sqlite(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE memories (id TEXT, statement TEXT)")
    conn.execute("INSERT INTO memories VALUES ('m1', 'Fictional plaintext row')")
    conn.commit()
    conn.close()


def _other_key_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    other = tmp_path / "other-home"
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "a different fictional passphrase")
    with Vault.open(other, create=True, scrypt_n=2**12) as foreign:
        foreign.add(OWNER, Draft.of(statement="Fictional: a record from someone else's store"))
    monkeypatch.undo()
    return other / "memvault.db"


def _foreign_keyed(path: Path, key: bytes) -> None:
    conn = open_db(path, key)
    conn.execute("CREATE TABLE notes (x TEXT)")
    conn.close()


def _newer_schema(vault: Vault, key: bytes) -> Path:
    path = Path(vault.backup(OWNER)["path"])
    future = path.with_name("future.db")
    shutil.copy(path, future)
    conn = open_db(future, key)
    conn.execute("INSERT INTO schema_version (version, name) VALUES (99, '0099_future.sql')")
    conn.close()
    return future


@pytest.mark.parametrize("kind", ["random", "plaintext", "other_key", "foreign", "newer_schema", "damaged"])
def test_bad_files_are_refused_and_nothing_changes(
    kind: str, home: Path, vault: Vault, filled: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = store_key(home)
    candidate = tmp_path / f"{kind}.db"
    expected: type[Exception] = InvalidArgument
    if kind == "random":
        candidate.write_bytes(os.urandom(64 * 1024))
    elif kind == "plaintext":
        _plaintext_sqlite(candidate)
    elif kind == "other_key":
        candidate = _other_key_store(tmp_path, monkeypatch)
    elif kind == "foreign":
        _foreign_keyed(candidate, key)
    elif kind == "newer_schema":
        candidate = _newer_schema(vault, key)
        expected = StoreTooNew
    else:  # a real backup with a page overwritten in the middle
        good = Path(vault.backup(OWNER)["path"])
        data = bytearray(good.read_bytes())
        data[8192:12288] = os.urandom(4096)
        candidate.write_bytes(bytes(data))
    vault.close()
    before = digests(home)
    candidate_before = candidate.read_bytes()

    with pytest.raises(expected):
        Vault.restore_backup(candidate, home)

    assert digests(home) == before
    assert candidate.read_bytes() == candidate_before
    with Vault.open(home) as reopened:
        assert reopened.get(OWNER, filled["secret"])["memory"]["id"] == filled["secret"]


def test_restore_is_refused_while_another_connection_holds_the_store(home: Path, vault: Vault) -> None:
    backup = Path(vault.backup(OWNER)["path"])
    vault.ctx.store.raw.execute("BEGIN")
    vault.ctx.store.raw.execute("SELECT count(*) FROM memories").fetchone()  # a reader keeps its snapshot
    try:
        with pytest.raises(StoreUnavailable, match="another memvault process"):
            Vault.restore_backup(backup, home)
    finally:
        vault.ctx.store.raw.execute("COMMIT")
    assert vault.status(OWNER)["counts"]["total"] == 0
    assert sorted(p.name for p in (home / "backups").iterdir()) == [backup.name, f"{backup.name}-keys"]


def test_cli_restore_prints_what_it_did(home: Path, vault: Vault, capsys: pytest.CaptureFixture[str]) -> None:
    vault.add(OWNER, Draft.of(statement="Fictional: the ferry leaves at nine"))
    backup = vault.backup(OWNER)["path"]
    vault.close()
    assert main(["restore", backup]) == 0
    out = capsys.readouterr().out
    assert "restored 1 records" in out and "previous store is kept as" in out
    assert main(["restore", str(home / "nope.db")]) == 1
    assert "is not a file" in capsys.readouterr().err


def _data_digests(home: Path) -> dict[str, str]:
    """The key and backups (the running daemon may checkpoint the store file itself at any time)."""
    return {k: v for k, v in digests(home).items() if k == "memvault.key.json" or k.startswith("backups/")}


def test_cli_restore_and_delete_data_refuse_while_the_daemon_runs(
    home: Path, vault: Vault, capsys: pytest.CaptureFixture[str]
) -> None:
    filled_ids = [vault.add(OWNER, Draft.of(statement=f"Fictional buoy number {n} is yellow"))["id"] for n in range(3)]
    backup = vault.backup(OWNER)["path"]
    vault.close()
    daemon = subprocess.Popen(
        [sys.executable, "-m", "memvault.desktop.cli", "daemon", "--headless"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not daemon_status(home)["running"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert daemon_status(home)["running"]
        before = _data_digests(home)
        assert main(["restore", backup]) == 2
        assert "memvault daemon --stop" in capsys.readouterr().err
        assert main(["uninstall", "--delete-data"]) == 2
        assert "memvault daemon --stop" in capsys.readouterr().err
        assert _data_digests(home) == before
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=30)
    with Vault.open(home) as reopened:
        assert reopened.status(OWNER)["counts"]["total"] == len(filled_ids)
    assert main(["restore", backup]) == 0


def test_a_backup_from_an_older_schema_is_migrated(home: Path, vault: Vault, tmp_path: Path) -> None:
    old = tmp_path / "schema1.db"
    conn = open_connection(old, store_key(home), create=True)
    migrations.migrate(conn, target=1)
    conn.execute("PRAGMA journal_mode = delete")
    conn.close()
    vault.close()
    result = Vault.restore_backup(old, home)
    assert result["schema_version"] == migrations.LATEST
    with Vault.open(home) as reopened:
        assert reopened.status(OWNER)["store"]["schema_version"] == migrations.LATEST


@pytest.mark.parametrize("where", ["first_page", "later_pages"])
def test_a_damaged_store_is_kept_aside_and_the_backup_restored(
    where: str, home: Path, vault: Vault, filled: dict[str, str]
) -> None:
    backup = Path(vault.backup(OWNER)["path"])
    vault.close()
    store = home / "memvault.db"
    data = bytearray(store.read_bytes())
    start = 0 if where == "first_page" else 4 * 4096
    data[start : start + 8 * 4096] = os.urandom(8 * 4096)
    store.write_bytes(bytes(data))
    damaged = bytes(data)

    result = Vault.restore_backup(backup, home)

    kept = Path(result["previous_store_kept_as"])
    # kept as it was (opening it may have rewritten page 1 to leave WAL mode; the damage is untouched)
    assert kept.name.endswith("-unopened.db") and kept.read_bytes()[4096:] == damaged[4096:]
    with Vault.open(home) as reopened:
        assert reopened.get(OWNER, filled["secret"])["memory"]["id"] == filled["secret"]
        assert str(kept) in {r["path"] for r in reopened.list_backups(OWNER)}
