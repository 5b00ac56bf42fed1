"""One memory on several machines: two homes on one PostgreSQL store (`memvault init --store`), each a
whole vault through the facade, seeing each other's writes; the store's password kept out of files."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path

import keyring
import psycopg
import pytest
from memory_keyring import MemoryKeyring

from memvault.core.maintenance import doctor, restore
from memvault.core.operations.changes import Change, ChangeBatch
from memvault.core.runtime.paths import VaultPaths
from memvault.core.store import engines
from memvault.core.store.postgres import credentials
from memvault.core.store.postgres.connection import without_password
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import SystemClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, StoreUnavailable
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import CorrectRequest
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.desktop.change_listener import ChangeListener
from memvault.desktop.commands.setup import create_store

WRITES = 15  # per writer: two homes, two writers each


def feed(vault: Vault) -> list[Change]:
    """Every change in `vault`'s feed, read page by page from the start."""
    changes: list[Change] = []
    cursor, more = 0, True
    while more:
        batch = vault.changes_since(OWNER, cursor)
        changes += batch.changes
        cursor, more = batch.cursor, batch.more
    return changes


def assert_each_write_once(homes: Sequence[Vault], written: Sequence[str]) -> None:
    """None lost, none doubled: each id written once, stored once, and in each home's change feed as
    one add; every feed in order (tests/bench/bench_shared_writers.py checks its writes with this too)."""
    assert len(written) == len(set(written)), "an add answered with an id another add had"
    for vault in homes:
        assert vault.status(OWNER)["counts"]["current"] == len(written)
        changes = feed(vault)
        added = [change.memory_ids[0] for change in changes if change.kind.value == "memory_added"]
        assert sorted(added) == sorted(written), "the change feed lost or doubled an add"
        cursors = [change.cursor for change in changes]
        assert cursors == sorted(set(cursors)), "the change feed is out of order"


def _ids(vault: Vault, query: str) -> list[str]:
    return [hit["id"] for hit in vault.search(OWNER, SearchRequest.of(query=query))["results"]]


def test_a_second_home_joins_the_store_and_each_sees_the_others_writes(tmp_path: Path, postgres_url: str) -> None:
    made = create_store(str(tmp_path / "laptop"), postgres_url)
    assert made["engine"] == "postgresql" and made["store"] == without_password(postgres_url)[0]
    assert made["recovery_key"] is None  # it would open backups: a shared store's are its operator's
    with Vault.open(tmp_path / "laptop") as laptop:
        canoe = laptop.add(OWNER, Draft.of(statement="The canoe club meets at Heronmere lake on Saturdays"))["id"]
        assert laptop.engine_name == "postgresql"
    joined = create_store(str(tmp_path / "desktop"), postgres_url)
    assert joined["schema_version"] == made["schema_version"]
    with Vault.open(tmp_path / "desktop") as desktop, Vault.open(tmp_path / "laptop") as laptop:
        assert _ids(desktop, "when does the canoe club meet")[:1] == [canoe]
        corrected = desktop.correct(
            OWNER, CorrectRequest.of(id=canoe, statement="The canoe club meets at Heronmere lake on Sundays")
        )
        assert laptop.get(OWNER, canoe)["memory"]["status"] == "superseded"
        assert laptop.get(OWNER, corrected["id"])["memory"]["statement"].endswith("on Sundays")
        assert laptop.status(OWNER)["counts"]["current"] == 1


def test_the_password_goes_to_the_keyring_and_never_into_the_home(
    tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given in the URL, even one needing percent-encoding, the password reaches the server decoded and
    is kept in the keyring only."""
    ring = MemoryKeyring()
    monkeypatch.setattr(keyring, "get_keyring", lambda: ring)
    monkeypatch.setattr(keyring, "set_password", ring.set_password)
    monkeypatch.setattr(keyring, "get_password", ring.get_password)
    given: list[str | None] = []
    connect = psycopg.connect
    monkeypatch.setattr(psycopg, "connect", lambda *a, **kw: given.append(kw.get("password")) or connect(*a, **kw))
    with_password = postgres_url.replace("postgres:@", "postgres:s3cret%2Ffictional%40@", 1)
    with Vault.open(tmp_path / "home", create=True, shared_store=with_password) as vault:
        kept = (vault.paths.home / engines.SHARED_STORE).read_text()
        assert "s3cret" not in kept and "s3cret" not in vault.store_location
    assert given[0] == "s3cret/fictional@"  # decoded as libpq decodes it
    assert credentials.password_for(kept.strip()) == "s3cret/fictional@"
    with Vault.open(tmp_path / "home"):
        assert given[-1] == "s3cret/fictional@"  # a later open takes it from the keyring


def test_another_machine_without_verified_tls_is_refused_and_the_home_left_empty(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with pytest.raises(InvalidArgument, match="verify-full"):
        Vault.open(home, create=True, shared_store="postgresql://memvault@db.example.net/memory")
    assert not (home / engines.SHARED_STORE).exists() and not VaultPaths.from_env(home).key_file.exists()


def test_a_home_with_a_store_of_its_own_does_not_join_another(tmp_path: Path, postgres_url: str) -> None:
    Vault.open(tmp_path / "home", create=True).close()
    with pytest.raises(Conflict, match="from an empty home"):
        Vault.open(tmp_path / "home", create=True, shared_store=postgres_url)
    assert engines.engine_of(VaultPaths.from_env(tmp_path / "home")).name == "sqlcipher"


def test_two_homes_with_two_writers_each_lose_nothing_and_double_nothing(tmp_path: Path, postgres_url: str) -> None:
    """Every add is stored once, and the change feed lists every one, in order, on both homes."""
    create_store(str(tmp_path / "a"), postgres_url)
    create_store(str(tmp_path / "b"), postgres_url)
    homes = [Vault.open(tmp_path / "a"), Vault.open(tmp_path / "b")]
    written: list[str] = []
    guard = threading.Lock()

    def writer(vault: Vault, name: str) -> None:
        for n in range(WRITES):
            answer = vault.add(OWNER, Draft.of(statement=f"Writer {name} logged harbour buoy {n} as checked"))
            with guard:
                written.append(answer["id"])

    try:
        threads = [
            threading.Thread(target=writer, args=(vault, f"{side}{n}"))
            for vault, side in zip(homes, "ab", strict=True)
            for n in (1, 2)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert len(written) == 4 * WRITES
        assert_each_write_once(homes, written)
    finally:
        for vault in homes:
            vault.close()


def test_doctor_names_the_engine(tmp_path: Path, postgres_url: str) -> None:
    """Backups and restore of a shared store: tests/store/test_shared_backups.py."""
    home = tmp_path / "home"
    create_store(str(home), postgres_url)
    report = doctor.run(home, clock=SystemClock())
    store_check = next(check for check in report["checks"] if check["name"] == "store")
    assert store_check["ok"] and store_check["detail"].endswith("opens (postgresql)"), report
    assert report["ok"], report
    with pytest.raises(InvalidArgument, match="is not a file"):
        restore.restore_backup(tmp_path / "elsewhere.db", home, clock=SystemClock())


def test_a_write_on_one_home_reaches_the_other_homes_listener_within_two_seconds(
    tmp_path: Path, postgres_url: str
) -> None:
    """What the app's live feed uses: another machine's write is heard (LISTEN/NOTIFY), not polled for."""
    create_store(str(tmp_path / "laptop"), postgres_url)
    create_store(str(tmp_path / "desktop"), postgres_url)
    heard: list[ChangeBatch] = []
    arrived = threading.Event()

    def on_changes(batch: ChangeBatch) -> None:
        heard.append(batch)
        arrived.set()

    with Vault.open(tmp_path / "desktop") as desktop, Vault.open(tmp_path / "laptop") as laptop:
        listener = ChangeListener(desktop, on_changes, use_daemon=False)
        with listener:
            assert listener.mode == "file"
            started = time.monotonic()
            added = laptop.add(OWNER, Draft.of(statement="The lighthouse keeper's logbook moved to the attic"))["id"]
            assert arrived.wait(2.0), "the other home's write was not heard within 2 s"
            latency = time.monotonic() - started
        assert [change.memory_ids for batch in heard for change in batch.changes][:1] == [(added,)]
        assert latency < 2.0


def test_an_unreachable_store_leaves_the_home_as_it_was(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with pytest.raises(StoreUnavailable, match="could not be reached"):
        Vault.open(home, create=True, shared_store=f"postgresql://memvault@/memory?host={tmp_path}&connect_timeout=2")
    assert not (home / engines.SHARED_STORE).exists() and not VaultPaths.from_env(home).key_file.exists()
    assert not engines.store_exists(VaultPaths.from_env(home))
