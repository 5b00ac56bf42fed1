"""Moving a home's store between engines (`memvault migrate`): a populated SQLCipher store into an empty
PostgreSQL database and back, every table verified on both sides, the home answering the same after
each move; refusals that change nothing; an interrupted move that leaves the home on its old store."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from clikit import run, run_json

from memvault.core.importers.request import ImportRequest
from memvault.core.maintenance import migrate
from memvault.core.maintenance.store_copy import copy_store, held_rows
from memvault.core.runtime.paths import VaultPaths
from memvault.core.store import engines
from memvault.core.store.postgres.connection import without_password
from memvault.core.store.transfer_tables import TABLES
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import SystemClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, StoreUnavailable
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.core.vocabulary.requests import CorrectRequest, FeedbackRequest, ProposeRequest, PurgeRequest
from memvault.core.vocabulary.search_request import SearchRequest

CLOCK = SystemClock()
CONVERSATIONS = Path(__file__).parent.parent / "importers" / "fixtures" / "claude_conversations.json"


def _fill(vault: Vault, tmp_path: Path) -> dict[str, str]:
    """A store with a record of every kind the tables hold."""
    first = vault.add(OWNER, Draft.of(statement="The canoe club meets at Heronmere lake on Saturdays"))["id"]
    newer = vault.correct(
        OWNER, CorrectRequest.of(id=first, statement="The canoe club meets at Heronmere lake on Sundays")
    )["id"]
    linked = vault.add(
        OWNER,
        Draft.of(
            statement="Bring the red paddles to the canoe club",
            tags=["project:Canoe"],
            links=[{"type": "relates_to", "target_id": newer}],
        ),
    )["id"]
    vault.propose(LOCAL_ASSISTANT, ProposeRequest.of(candidates=[{"statement": "Marta prefers window seats"}]))
    vault.record_feedback(OWNER, FeedbackRequest.of(id=linked, useful=True))
    vault.create_token(OWNER, "phone", "remote")
    vault.set_setting(OWNER, "embeddings", "off")
    export = shutil.copy(CONVERSATIONS, tmp_path / CONVERSATIONS.name)
    vault.imports.run(OWNER, ImportRequest(path=str(export), commit=True))
    vault.search(OWNER, SearchRequest.of(query="canoe club"))  # usage and the retrieval log
    vault.backup(OWNER)
    return {"first": first, "newer": newer, "linked": linked}


def _answers(vault: Vault, ids: dict[str, str]) -> dict[str, Any]:
    """What the vault answers, independent of the engine behind it."""
    with vault.ctx.reading() as conn:
        rows = held_rows(conn)
    return {
        "rows": rows,
        "search": [
            hit["id"] for hit in vault.search(OWNER, SearchRequest.of(query="canoe club").browsing())["results"]
        ],
        "fragment": [hit["id"] for hit in vault.search(OWNER, SearchRequest.of(query="paddl").browsing())["results"]],
        "old": vault.get(OWNER, ids["first"])["memory"],
        "history": [(e["action"], e["time"]) for e in vault.events_for(OWNER, ids["first"])],
        "cursor": vault.changes_since(OWNER, None).cursor,
        "status": vault.status(OWNER)["counts"],
        "conversations": [
            hit["title"] for hit in vault.imports.search_conversations(OWNER, query="peanuts shellfish")["items"]
        ],
        "principals": [p["name"] for p in vault.list_principals(OWNER)],
        "setting": vault.get_setting("embeddings"),
        "proposals": [p["id"] for p in vault.proposals(OWNER)],
    }


def _after(vault: Vault, before: dict[str, Any]) -> None:
    """The change feed goes on from where it was: a write gets the next cursor."""
    added = vault.add(OWNER, Draft.of(statement="The canoe club's boathouse code is on the noticeboard"))["id"]
    batch = vault.changes_since(OWNER, before["cursor"])
    assert not batch.reset and [c.memory_ids for c in batch.changes][-1] == (added,)
    assert batch.changes[0].cursor == before["cursor"] + 1


def test_a_store_moves_to_postgresql_and_back_and_answers_the_same(home: Path, postgres_url: str) -> None:
    with Vault.open(home) as vault:
        ids = _fill(vault, home.parent)
        before = _answers(vault, ids)
    assert {"memories", "events", "links", "proposals", "conversations", "tokens", "feedback"} <= set(before["rows"])
    seen: list[tuple[str, int, int]] = []
    moved = migrate.to_shared(home, postgres_url, clock=CLOCK, progress=lambda *a: seen.append(a))
    assert moved["engine"] == "postgresql" and moved["store"] == without_password(postgres_url)[0]
    assert {name: n for name, n in moved["rows"].items() if n} == before["rows"]
    assert {table for table, done, total in seen if done == total} == {spec.name for spec in TABLES}
    paths = VaultPaths.from_env(home)
    retired = Path(str(moved["previous_store_kept_as"]))
    assert retired.is_file() and retired.parent.parent == paths.backups and retired.parent.name.startswith("migrated-")
    assert not paths.store.exists() and not list(paths.backups.glob("memvault-*.db"))  # its backup went with it
    (kept_backup,) = moved["backups_moved"]
    assert Path(kept_backup).parent == retired.parent and Path(f"{kept_backup}-keys").is_file()
    assert (retired.parent / paths.key_file.name).is_file()
    with Vault.open(home) as vault:
        assert vault.engine_name == "postgresql"
        assert _answers(vault, ids) == before
        _after(vault, before)
        before = _answers(vault, ids)
    back = migrate.to_local(home)
    assert back["engine"] == "sqlcipher" and back["shared_store_left"] == without_password(postgres_url)[0]
    assert not engines.is_shared(VaultPaths.from_env(home))
    with Vault.open(home) as vault:
        assert vault.engine_name == "sqlcipher"
        assert _answers(vault, ids) == before
        _after(vault, before)
    shared, _, _ = engines.open_shared(postgres_url)  # left as it was, for the other machines
    try:
        assert held_rows(shared) == before["rows"]
    finally:
        shared.close()


def test_a_purge_on_the_moved_store_works_and_names_what_it_cannot_reach(home: Path, postgres_url: str) -> None:
    with Vault.open(home) as vault:
        gone = vault.add(OWNER, Draft.of(statement="The spare key is under the blue flowerpot"))["id"]
        vault.backup(OWNER)
    migrate.to_shared(home, postgres_url, clock=CLOCK)
    with Vault.open(home) as vault:
        requested = vault.request_purge(OWNER, PurgeRequest.parse({"id": gone, "reason": "privacy"}))
        report = vault.confirm_purge(OWNER, requested["request_id"])
        assert report["backups"]["rewritten"] == [] and report["backups"]["failed"] == []
        assert vault.search(OWNER, SearchRequest.of(query="spare key flowerpot"))["results"] == []


def test_a_database_with_records_is_refused_and_nothing_changes(home: Path, postgres_url: str, tmp_path: Path) -> None:
    other = tmp_path / "other"
    with Vault.open(other, create=True, shared_store=postgres_url) as joined:
        joined.add(OWNER, Draft.of(statement="Another machine's record about the lighthouse"))
    with pytest.raises(Conflict, match="already holds memvault records"):
        migrate.to_shared(home, postgres_url, clock=CLOCK)
    assert VaultPaths.from_env(home).store.is_file() and not engines.is_shared(VaultPaths.from_env(home))


def test_a_bad_url_and_a_home_already_there_are_refused(home: Path, postgres_url: str, tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument, match="postgresql://"):
        migrate.to_shared(home, "mysql://someone:secret@db.example.net/memory", clock=CLOCK)
    with pytest.raises(Conflict, match="store file already"):
        migrate.to_local(home)
    shared = tmp_path / "shared"
    Vault.open(shared, create=True, shared_store=postgres_url).close()
    with pytest.raises(Conflict, match="shared store already"):
        migrate.to_shared(shared, postgres_url, clock=CLOCK)
    assert VaultPaths.from_env(home).store.is_file()


def test_an_interrupted_move_leaves_the_home_on_its_store(home: Path, postgres_url: str) -> None:
    with Vault.open(home) as vault:
        ids = _fill(vault, home.parent)
        before = _answers(vault, ids)

    def fail_midway(table: str, done: int, total: int) -> None:
        if table == "events":
            raise RuntimeError("the machine went to sleep")

    with pytest.raises(RuntimeError, match="went to sleep"):
        migrate.to_shared(home, postgres_url, clock=CLOCK, progress=fail_midway)
    assert not engines.is_shared(VaultPaths.from_env(home))
    with Vault.open(home) as vault:
        assert vault.engine_name == "sqlcipher" and _answers(vault, ids) == before
    shared, _, _ = engines.open_shared(postgres_url)
    try:
        assert held_rows(shared) == {}  # rolled back: the database is empty, and can be migrated into
    finally:
        shared.close()
    migrate.to_shared(home, postgres_url, clock=CLOCK)
    with Vault.open(home) as vault:
        assert _answers(vault, ids) == before


def test_the_command_line_moves_the_store_there_and_back(
    home: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with Vault.open(home) as vault:
        kept = vault.add(OWNER, Draft.of(statement="The allotment plot is number 14 on the east side"))["id"]
    code, out, err = run(capsys, "migrate", "--to", postgres_url)
    assert code == 0, err
    assert "copied memories: 1 rows\n" in err and "copied events: " in err and "copied oauth_tokens: 0 rows\n" in err
    assert "now uses the shared PostgreSQL store" in out and "/backups/migrated-" in out and "verified" in out
    assert run_json(capsys, "get", kept)["memory"]["statement"].startswith("The allotment plot")
    code, _, err = run(capsys, "migrate", "--to", postgres_url)
    assert code != 0 and "shared store already" in err
    back = run_json(capsys, "migrate", "--to", "local")
    assert back["engine"] == "sqlcipher" and back["rows"]["memories"] == 1
    assert run_json(capsys, "get", kept)["memory"]["id"] == kept


def test_a_copy_that_does_not_match_its_source_is_undone(home: Path, postgres_url: str) -> None:
    with Vault.open(home) as vault:
        vault.add(OWNER, Draft.of(statement="The allotment plot is number 14 on the east side"))
        target, _, _ = engines.open_shared(postgres_url)
        try:
            put = target.transfer.put

            def altered(table: str, rows: Sequence[tuple[Any, ...]]) -> None:  # a statement changed on the way
                put(table, [(*row[:4], "altered", *row[5:]) for row in rows] if table == "memories" else rows)

            target.transfer.put = altered  # type: ignore[method-assign]
            with (
                pytest.raises(StoreUnavailable, match="copy of memories does not match its source"),
                target.transaction(),
                vault.ctx.reading() as source,
            ):
                copy_store(source, target)
            assert held_rows(target) == {}
        finally:
            target.close()


KILLED_MIDWAY = """
import os, signal, sys
from memvault.core.maintenance import migrate
from memvault.core.vocabulary.clock import SystemClock

def progress(table, done, total):
    if table == "events":
        os.kill(os.getpid(), signal.SIGKILL)

migrate.to_shared(sys.argv[1], sys.argv[2], clock=SystemClock(), progress=progress)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_move_killed_midway_leaves_the_home_on_its_store(home: Path, postgres_url: str) -> None:
    with Vault.open(home) as vault:
        ids = _fill(vault, home.parent)
        before = _answers(vault, ids)
    killed = subprocess.run([sys.executable, "-c", KILLED_MIDWAY, str(home), postgres_url], check=False)
    assert killed.returncode == -signal.SIGKILL
    assert not engines.is_shared(VaultPaths.from_env(home))
    with Vault.open(home) as vault:
        assert vault.engine_name == "sqlcipher" and _answers(vault, ids) == before
    shared, _, _ = engines.open_shared(postgres_url)
    try:
        assert held_rows(shared) == {}
    finally:
        shared.close()


def _on_its_file(home: Path, ids: dict[str, str], before: dict[str, Any]) -> None:
    """The home opens on its store file, with everything it held."""
    paths = VaultPaths.from_env(home)
    assert paths.store.is_file() and not engines.is_shared(paths)
    assert len(list(paths.backups.glob("memvault-*.db"))) == 1 and not list(paths.backups.glob("migrated-*"))
    with Vault.open(home) as vault:
        assert vault.engine_name == "sqlcipher" and _answers(vault, ids) == before


def test_a_switch_that_fails_takes_the_shared_store_out_of_the_home_again(
    home: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Vault.open(home) as vault:
        ids = _fill(vault, home.parent)
        before = _answers(vault, ids)
    pointer = home / engines.SHARED_STORE
    fsync = os.fsync

    def failing(fd: int) -> None:  # the disk refuses the pointer
        if pointer.exists() or pointer.with_name(f"{pointer.name}.tmp").exists():
            raise OSError(5, "Input/output error")
        fsync(fd)

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(StoreUnavailable, match="still uses its store file"):
        migrate.to_shared(home, postgres_url, clock=CLOCK)
    monkeypatch.setattr(os, "fsync", fsync)
    assert not pointer.exists() and not pointer.with_name(f"{pointer.name}.tmp").exists()
    _on_its_file(home, ids, before)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc")
def test_the_store_file_is_closed_before_it_is_moved(
    home: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows renames no file a process holds open: the holder lets go first (new openers refuse
    by then: the home names the shared store too)."""
    with Vault.open(home) as vault:
        vault.add(OWNER, Draft.of(statement="The allotment plot is number 14 on the east side"))
    paths = VaultPaths.from_env(home)
    replace = os.replace
    held: list[bool] = []

    def checked(source: Any, target: Any) -> None:
        if Path(source) == paths.store:
            opened = {os.path.realpath(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd")}
            held.append(str(paths.store.resolve()) in opened)
            with pytest.raises(Conflict):
                Vault.open(home)
        replace(source, target)

    monkeypatch.setattr(os, "replace", checked)
    migrate.to_shared(home, postgres_url, clock=CLOCK)
    assert held == [False]


def test_a_move_interrupted_after_the_copy_committed_is_finished_by_running_it_again(
    home: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Vault.open(home) as vault:
        ids = _fill(vault, home.parent)
        before = _answers(vault, ids)
    retire = migrate._retire

    def interrupted(*args: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(migrate, "_retire", interrupted)
    with pytest.raises(KeyboardInterrupt):
        migrate.to_shared(home, postgres_url, clock=CLOCK)
    monkeypatch.setattr(migrate, "_retire", retire)
    _on_its_file(home, ids, before)  # opening it changes nothing in it
    found = migrate.check_shared(postgres_url, home)
    assert (
        found["copy_of_this_store"] and not migrate.check_shared(postgres_url, home.parent / "x")["copy_of_this_store"]
    )
    seen: list[tuple[str, int, int]] = []
    moved = migrate.to_shared(home, postgres_url, clock=CLOCK, progress=lambda *a: seen.append(a))
    assert moved["resumed"] and {name: n for name, n in moved["rows"].items() if n} == before["rows"]
    assert {table for table, done, total in seen if done == total} == {spec.name for spec in TABLES}
    with Vault.open(home) as vault:
        assert vault.engine_name == "postgresql" and _answers(vault, ids) == before
    shared, _, _ = engines.open_shared(postgres_url)
    try:
        assert shared.settings.read(migrate.COPY_MARKER) is None  # the marker went with the move
    finally:
        shared.close()


def test_a_copy_left_behind_is_not_used_once_the_store_changed(
    home: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Vault.open(home) as vault:
        vault.add(OWNER, Draft.of(statement="The allotment plot is number 14 on the east side"))

    def interrupted(*args: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(migrate, "_retire", interrupted)
    with pytest.raises(KeyboardInterrupt):
        migrate.to_shared(home, postgres_url, clock=CLOCK)
    monkeypatch.undo()
    with Vault.open(home) as vault:
        vault.add(OWNER, Draft.of(statement="The shed key hangs by the back door"))
    with pytest.raises(Conflict, match="changed since; nothing was changed"):
        migrate.to_shared(home, postgres_url, clock=CLOCK)
    assert not engines.is_shared(VaultPaths.from_env(home))


def test_the_store_file_is_held_alone_twice_in_a_row_and_moves_back_and_forth_unopened(
    home: Path, postgres_url: str
) -> None:
    from memvault.core.maintenance.restore import hold_alone  # noqa: PLC0415
    from memvault.core.security import keys  # noqa: PLC0415

    with Vault.open(home) as vault:
        ids = {"first": vault.add(OWNER, Draft.of(statement="The allotment plot is number 14"))["id"]}
        before = _answers(vault, ids)
    paths = VaultPaths.from_env(home)
    key = keys.load_key(paths.key_file)
    for _ in range(2):  # the second finds the file in rollback-journal mode
        holder = hold_alone(paths, key, "migrate")
        assert holder is not None
        holder.close()
    migrate.to_shared(home, postgres_url, clock=CLOCK)
    migrate.to_local(home)  # its new file is left in rollback-journal mode
    import psycopg  # noqa: PLC0415

    name = f"again_{os.getpid()}"
    base, _, query = postgres_url.partition("?")
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    again = f"{base.rsplit('/', 1)[0]}/{name}?{query}"
    try:
        migrate.to_shared(home, again, clock=CLOCK)
        with Vault.open(home) as vault:
            assert _answers(vault, ids) == before
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def test_checking_a_database_changes_nothing_in_it(postgres_url: str) -> None:
    found = migrate.check_shared(postgres_url)
    assert found["schema_version"] is None and found["rows"] == {}
    probe, _, _ = engines.open_shared(postgres_url, migrate=False)
    try:
        assert probe.maintenance.table_names() == set()
    finally:
        probe.close()


def test_a_pointer_that_cannot_be_written_takes_its_password_back(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring  # noqa: PLC0415
    from memory_keyring import MemoryKeyring  # noqa: PLC0415

    from memvault.core.store.postgres import credentials  # noqa: PLC0415

    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    try:
        paths = VaultPaths.from_env(home)
        kept = "postgresql://memvault@db.example.net/memory?sslmode=verify-full"
        replace = os.replace

        def full_disk(source: Any, target: Any) -> None:
            if Path(target).name == engines.SHARED_STORE:
                raise OSError(28, "No space left on device")
            replace(source, target)

        monkeypatch.setattr(os, "replace", full_disk)
        with pytest.raises(OSError, match="No space left"):
            engines.point_at_shared(paths, kept, "hunter2")
        assert credentials.password_for(kept) is None
        assert not (home / engines.SHARED_STORE).exists() and list(home.glob(f"{engines.SHARED_STORE}*")) == []
    finally:
        keyring.set_keyring(previous)
