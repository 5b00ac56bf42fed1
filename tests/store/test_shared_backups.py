"""Backups and restore of a shared (PostgreSQL) store (issue 30), on a real PostgreSQL and real SQLCipher
files: a backup is the same encrypted store file a home of its own writes; a restore brings the shared
store back to it for every machine; each machine's purges reach its own backups and never trip over the
others'; doctor passes."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from clikit import run, run_json

from memvault.core.maintenance import doctor, migrate, restore
from memvault.core.maintenance.backup_files import PLAINTEXT_HEADER
from memvault.core.maintenance.files import sha256_of
from memvault.core.maintenance.store_copy import held_rows
from memvault.core.store.engines import file_engine
from memvault.core.store.seam import Store
from memvault.core.store.transfer_tables import TABLES, Tally
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import SystemClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Conflict, NotFound, StoreTooNew, WrongPassphrase
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, PurgeRequest
from memvault.core.vocabulary.search_request import SearchRequest

CLOCK = SystemClock()
SCRYPT_N = 2**12  # as tests/conftest.py: scrypt at test cost


def _home(folder: Path, url: str) -> Path:
    Vault.open(folder, create=True, shared_store=url, scrypt_n=SCRYPT_N).close()
    return folder


@pytest.fixture
def homes(tmp_path: Path, postgres_url: str) -> tuple[Path, Path]:
    """Two machines' homes on one shared store."""
    return _home(tmp_path / "laptop", postgres_url), _home(tmp_path / "desktop", postgres_url)


def _tallies(store: Store) -> dict[str, Tally]:
    """Every logical table's rows and order-independent digest."""
    found: dict[str, Tally] = {}
    with store.read_snapshot():
        for spec in TABLES:
            tally = found[spec.name] = Tally()
            for rows in store.transfer.batches(spec.name, 500):
                tally.add(spec, rows)
    return found


def _ids(vault: Vault, query: str) -> set[str]:
    return {hit["id"] for hit in vault.search(OWNER, SearchRequest.of(query=query).browsing())["results"]}


@contextmanager
def _open_backup(path: Path, key: bytes) -> Iterator[Store]:
    opened = file_engine().open(path, key)
    try:
        yield opened
    finally:
        opened.close()


def test_a_backup_of_a_shared_home_is_an_encrypted_store_file_with_every_record(homes: tuple[Path, Path]) -> None:
    laptop, _ = homes
    with Vault.open(laptop) as vault:
        first = vault.add(OWNER, Draft.of(statement="The canoe club meets at Heronmere lake on Saturdays"))["id"]
        vault.correct(OWNER, CorrectRequest.of(id=first, statement="The canoe club meets at Heronmere on Sundays"))
        vault.add(OWNER, Draft.of(statement="Bring the red paddles to the canoe club", tags=["project:Canoe"]))
        vault.create_token(OWNER, "phone", "remote")
        before = _tallies(vault.ctx.store)
        made = vault.backup(OWNER)
        key = vault.ctx.key
        listed = vault.list_backups(OWNER)
    path = Path(made["path"])
    assert made["encrypted"] and made["kind"] == "manual" and path.parent == laptop / "backups"
    assert [(row["path"], row["exists"]) for row in listed] == [(str(path), True)]
    assert Path(f"{path}-keys").is_file() and oct(path.stat().st_mode & 0o777) == "0o600"
    assert path.read_bytes()[: len(PLAINTEXT_HEADER)] != PLAINTEXT_HEADER
    assert not (laptop / "backups" / f"{path.name}-wal").exists()  # one file, as a store file's backups
    with pytest.raises(sqlite3.DatabaseError), sqlite3.connect(path) as plain:  # not without the key
        plain.execute("SELECT count(*) FROM sqlite_master").fetchone()
    with pytest.raises(WrongPassphrase):
        file_engine().open(path, os.urandom(32))
    with _open_backup(path, key) as copy:
        assert copy.maintenance.integrity() == []
        assert copy.maintenance.schema_version() == file_engine().latest_schema
        assert _tallies(copy) == before  # every row of every table, as the store held it
        assert held_rows(copy)["memories"] == 3


def test_a_restore_brings_the_shared_store_back_for_every_machine(homes: tuple[Path, Path]) -> None:
    laptop, desktop = homes
    with Vault.open(desktop) as vault:
        kept = vault.add(OWNER, Draft.of(statement="The lighthouse keeper's logbook is in the attic"))["id"]
        purged = vault.add(OWNER, Draft.of(statement="The lighthouse spare key is under the blue flowerpot"))["id"]
        at_backup = _tallies(vault.ctx.store)
        backup = Path(vault.backup(OWNER)["path"])  # the desktop's: the laptop's purge below does not reach it
    with Vault.open(laptop) as other:
        assert _ids(other, "lighthouse") == {kept, purged}  # its caches are warm
        seen = other.changes_since(OWNER, None).cursor
        later = other.add(OWNER, Draft.of(statement="The lighthouse lamp was replaced in May"))["id"]
        other.archive(OWNER, ArchiveRequest.of(id=kept, reason="moved"))
        asked = other.request_purge(OWNER, PurgeRequest.parse({"id": purged, "reason": "privacy"}))
        other.confirm_purge(OWNER, asked["request_id"])
        with Vault.open(desktop) as vault:
            elsewhere = vault.add(OWNER, Draft.of(statement="The lighthouse tours start at ten"))["id"]
        assert _ids(other, "lighthouse") == {later, elsewhere}
        replaced = _tallies(other.ctx.store)

        report = restore.restore_backup(backup, desktop, clock=CLOCK)  # while the laptop's vault is open

        assert report["purged_again"] == 1 and report["records"] == 1  # a restore never brings a purge back
        assert report["replaced_other_store"] is None
        # the other machine, still open, sees the store as it was at the backup, less the purged record
        assert other.get(OWNER, kept)["memory"]["status"] == "current"
        for gone in (purged, later, elsewhere):
            with pytest.raises(NotFound):
                other.get(OWNER, gone)
        assert _ids(other, "lighthouse") == {kept}
        assert other.status(OWNER)["counts"]["current"] == 1
        batch = other.changes_since(OWNER, seen)
        assert not batch.reset and batch.cursor > seen  # the feed goes on past every cursor held
        assert [change.kind.value for change in batch.changes][-1] == "store_restored"
        after = _tallies(other.ctx.store)
    changed = {"memories", "events", "tombstones", "proposals", "memory_vectors", "memory_usage", "retrieval_log"}
    for table in TABLES:  # as at the backup: the purged record out, its tombstone and the restore's event in
        if table.name not in changed:
            assert after[table.name] == at_backup[table.name], table.name
    assert after["memories"].rows == 1 and after["tombstones"].rows == 1
    assert after["events"].rows == at_backup["events"].rows + 1
    # the store as it was before the restore is this home's pre-restore backup
    kept_as = Path(str(report["previous_store_kept_as"]))
    with Vault.open(desktop) as vault:
        assert {(row["path"], row["kind"]) for row in vault.list_backups(OWNER)} == {
            (str(backup), "manual"),
            (str(kept_as), "pre-restore"),
        }
        with _open_backup(kept_as, vault.ctx.key) as copy:
            assert _tallies(copy) == replaced
    checks = {c["name"]: c for c in doctor.run(desktop, clock=CLOCK)["checks"]}
    assert not checks["backups"]["ok"]  # the backup restored from still holds what the laptop purged
    with Vault.open(desktop) as vault:
        swept = vault.sweep_purged(OWNER)["backups"]
    assert sorted(swept["rewritten"]) == sorted([str(backup), str(kept_as)]) and not swept["missing"]
    assert doctor.run(desktop, clock=CLOCK)["ok"]


def test_a_backup_newer_than_this_memvault_is_refused_and_nothing_changes(homes: tuple[Path, Path]) -> None:
    laptop, _ = homes
    with Vault.open(laptop) as vault:
        vault.add(OWNER, Draft.of(statement="The allotment plot is number 14 on the east side"))
        backup = Path(vault.backup(OWNER)["path"])
        vault.add(OWNER, Draft.of(statement="The allotment shed is painted green"))
        key = vault.ctx.key
        before = _tallies(vault.ctx.store)
    with _open_backup(backup, key) as copy:
        newer = file_engine().latest_schema + 1
        copy.raw.execute("INSERT INTO schema_version (version, name) VALUES (?, ?)", (newer, f"{newer:04d}_x.sql"))  # type: ignore[attr-defined]
    with pytest.raises(StoreTooNew, match="newer than this memvault"):
        restore.restore_backup(backup, laptop, clock=CLOCK)
    with Vault.open(laptop) as vault:
        assert _tallies(vault.ctx.store) == before
        assert [row["kind"] for row in vault.list_backups(OWNER)] == ["manual"]
    assert sorted(p.name for p in (laptop / "backups").iterdir()) == [backup.name, f"{backup.name}-keys"]


def test_each_machines_purge_reaches_its_own_backups_and_never_fails_over_the_others(
    homes: tuple[Path, Path],
) -> None:
    laptop, desktop = homes
    with Vault.open(laptop) as vault:
        secret = vault.add(OWNER, Draft.of(statement="The safe code is hidden behind the Brindlecove painting"))["id"]
        mine = Path(vault.backup(OWNER)["path"])
        laptop_key = vault.ctx.key
    with Vault.open(desktop) as other:
        theirs = Path(other.backup(OWNER)["path"])
        desktop_key = other.ctx.key
        assert [row["path"] for row in other.list_backups(OWNER)] == [str(theirs)]
    with Vault.open(laptop) as vault:
        assert [row["path"] for row in vault.list_backups(OWNER)] == [str(mine)]  # its own only
        asked = vault.request_purge(OWNER, PurgeRequest.parse({"id": secret, "reason": "privacy"}))
        report = vault.confirm_purge(OWNER, asked["request_id"])
    assert report["backups"] == {"rewritten": [str(mine)], "deleted": [], "missing": [], "failed": []}
    assert any("other machines" in note for note in report["not_cleaned"])
    with _open_backup(mine, laptop_key) as copy:
        assert copy.maintenance.existing_ids([secret]) == [] and copy.maintenance.statements_of([secret]) == {}
        assert [t[0] for t in copy.maintenance.tombstone_ids()] == [secret]
    assert theirs.is_file()  # the other machine's file: not touched, not marked removed
    with _open_backup(theirs, desktop_key) as copy:
        assert copy.maintenance.existing_ids([secret]) == [secret]
    check = {c["name"]: c for c in doctor.run(desktop, clock=CLOCK)["checks"]}
    assert not check["backups"]["ok"] and "still hold purged records" in check["backups"]["detail"]
    with Vault.open(desktop) as other:
        assert [(row["path"], row["removed_at"]) for row in other.list_backups(OWNER)] == [(str(theirs), None)]
        other.scheduled_backup(OWNER)  # the daemon's run follows the purges made elsewhere
    with _open_backup(theirs, desktop_key) as copy:
        assert copy.maintenance.existing_ids([secret]) == []
    assert doctor.run(desktop, clock=CLOCK)["ok"] and doctor.run(laptop, clock=CLOCK)["ok"]


def test_doctor_on_a_shared_home_checks_its_backups_and_records_strays(homes: tuple[Path, Path]) -> None:
    laptop, _ = homes
    with Vault.open(laptop) as vault:
        vault.add(OWNER, Draft.of(statement="The bicycle pump is in the hallway cupboard"))
        made = Path(vault.backup(OWNER)["path"])
    report = doctor.run(laptop, clock=CLOCK)
    checks = {c["name"]: c for c in report["checks"]}
    assert report["ok"], [c for c in report["checks"] if not c["ok"]]
    assert checks["backups"]["detail"].startswith("1 backups") and checks["unrecorded backups"]["ok"]
    stray = made.with_name("memvault-20260101T000000Z-daily.db")  # a backup whose writer was killed
    stray.write_bytes(made.read_bytes())
    broken = made.with_name("memvault-20260102T000000Z-daily.db")
    broken.write_bytes(os.urandom(4096))
    assert not doctor.run(laptop, clock=CLOCK)["ok"]
    fixed = {c["name"]: c for c in doctor.run(laptop, clock=CLOCK, fix=True)["checks"]}
    assert fixed["unrecorded backups"]["detail"] == "recorded 1 sound backup files, deleted 1 broken ones"
    assert not broken.exists()
    with Vault.open(laptop) as vault:
        assert {(row["path"], row["kind"]) for row in vault.list_backups(OWNER)} == {
            (str(made), "manual"),
            (str(stray), "daily"),
        }
    assert doctor.run(laptop, clock=CLOCK)["ok"]


def test_another_machines_backup_restores_with_its_passphrase(homes: tuple[Path, Path]) -> None:
    """A backup the laptop wrote is under the laptop's key: the desktop opens it with the `-keys` beside it."""
    laptop, desktop = homes
    with Vault.open(laptop) as vault:
        kept = vault.add(OWNER, Draft.of(statement="The garden hose hangs behind the shed"))["id"]
        backup = Path(vault.backup(OWNER)["path"])
        later = vault.add(OWNER, Draft.of(statement="The garden gate needs oil"))["id"]
    with pytest.raises(WrongPassphrase):
        restore.restore_backup(backup, desktop, clock=CLOCK, backup_secret="not the passphrase")
    with Vault.open(desktop) as other:
        assert other.get(OWNER, later)["memory"]["id"] == later  # the refusal changed nothing
    report = restore.restore_backup(backup, desktop, clock=CLOCK, backup_secret=os.environ["MEMVAULT_PASSPHRASE"])
    assert report["records"] == 1 and Path(str(report["previous_store_kept_as"])).parent == desktop / "backups"
    with Vault.open(desktop) as other:
        assert other.get(OWNER, kept)["memory"]["id"] == kept
        with pytest.raises(NotFound):
            other.get(OWNER, later)


def test_backups_a_shared_home_made_stay_reachable_when_it_moves_to_a_store_file(homes: tuple[Path, Path]) -> None:
    """SQLCipher attaches a file with the store's salt; these backups have their own: never taken for broken."""
    laptop, _ = homes
    with Vault.open(laptop) as vault:
        secret = vault.add(OWNER, Draft.of(statement="The spare car key is taped under the workbench"))["id"]
        made = Path(vault.backup(OWNER)["path"])
    migrate.to_local(laptop)
    with Vault.open(laptop) as vault:
        assert vault.engine_name == "sqlcipher"
        asked = vault.request_purge(OWNER, PurgeRequest.parse({"id": secret, "reason": "privacy"}))
        report = vault.confirm_purge(OWNER, asked["request_id"])
        key = vault.ctx.key
    assert report["backups"] == {"rewritten": [str(made)], "deleted": [], "missing": [], "failed": []}
    with _open_backup(made, key) as copy:
        assert copy.maintenance.existing_ids([secret]) == []
    assert doctor.run(laptop, clock=CLOCK)["ok"]


def test_a_restore_that_fails_midway_changes_nothing(homes: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    laptop, desktop = homes
    with Vault.open(laptop) as vault:
        vault.add(OWNER, Draft.of(statement="The rain barrel is behind the garage"))
        backup = Path(vault.backup(OWNER)["path"])
        vault.add(OWNER, Draft.of(statement="The rain barrel overflows in March"))
        before = _tallies(vault.ctx.store)
    copied = restore.copy_store

    def copy_then_fail(source: Store, target: Store) -> dict[str, int]:
        copied(source, target)  # every row is in, verified: the commit never comes
        raise RuntimeError("the machine went to sleep")

    monkeypatch.setattr(restore, "copy_store", copy_then_fail)
    with pytest.raises(RuntimeError, match="went to sleep"):
        restore.restore_backup(backup, laptop, clock=CLOCK)
    with Vault.open(desktop) as other:
        assert _tallies(other.ctx.store) == before
    with Vault.open(laptop) as vault:
        assert [row["kind"] for row in vault.list_backups(OWNER)] == ["manual"]
    assert sorted(p.name for p in (laptop / "backups").iterdir()) == [backup.name, f"{backup.name}-keys"]
    assert not list(laptop.glob("memvault.db.restore-*"))


def test_the_command_line_backs_up_restores_and_checks_a_shared_home(
    homes: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    laptop, _ = homes
    home = ("--home", str(laptop))
    kept = run_json(capsys, *home, "add", "The kayak paddles hang in the garage")["id"]
    made = run_json(capsys, *home, "backup")
    assert made["encrypted"] and Path(made["path"]).is_file()
    later = run_json(capsys, *home, "add", "The kayak needs a new seat")["id"]
    code, out, err = run(capsys, *home, "restore", made["path"])
    assert code == 0, err
    assert "restored 1 records from" in out and "the previous store is kept as" in out
    assert run_json(capsys, *home, "get", kept)["memory"]["id"] == kept
    code, _, _ = run(capsys, *home, "get", later)
    assert code != 0
    assert {row["kind"] for row in run_json(capsys, *home, "backup", "--list")} == {"manual", "pre-restore"}
    assert run_json(capsys, *home, "doctor")["ok"]


def test_a_restore_keeps_the_shared_stores_kill_switch_and_revocations(homes: tuple[Path, Path]) -> None:
    """Security state is not rolled back for every machine: the stronger store-wide kill switch stays, and a
    token revoked after the backup stays refused."""
    laptop, desktop = homes
    with Vault.open(laptop) as vault:
        vault.add(OWNER, Draft.of(statement="The porch light is on a timer"))
        phone = vault.create_token(OWNER, "phone", "remote")["token"]
        tablet = vault.create_token(OWNER, "tablet", "remote")["token"]
        backup = Path(vault.backup(OWNER)["path"])  # the store-wide switch is off here
        vault.revoke_principal(OWNER, "phone")
        vault.set_kill_switch(OWNER, "all", store_wide=True)
        assert vault.authenticate(phone) is None

    restore.restore_backup(backup, laptop, clock=CLOCK, replace=True)

    with Vault.open(desktop) as other:
        assert other.kill_switch().store.value == "all"
        assert other.authenticate(phone) is None  # revoked after the backup: stays refused
        assert other.authenticate(tablet) is not None
        assert other.ctx.store.principals.fetch("phone")["revoked_at"] is not None  # type: ignore[index]


class _DropsAfterCommit:
    """The store's connection, losing the line right after the server committed (the answer never comes)."""

    def __init__(self, raw: object) -> None:
        self._raw = raw

    def __getattr__(self, name: str) -> object:
        return getattr(self._raw, name)

    def execute(self, query: object, *args: object, **kwargs: object) -> object:
        done = self._raw.execute(query, *args, **kwargs)  # type: ignore[attr-defined]
        if query == "COMMIT":
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return done


def test_a_restore_whose_commit_answer_is_lost_keeps_the_safety_copy(
    homes: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    laptop, desktop = homes
    with Vault.open(laptop) as vault:
        vault.add(OWNER, Draft.of(statement="The boat trailer lights need new bulbs"))
        backup = Path(vault.backup(OWNER)["path"])
        later = vault.add(OWNER, Draft.of(statement="The boat trailer tyres were changed in June"))["id"]
    opened = restore.open_store

    def open_then_drop(*args: object, **kwargs: object) -> Store:
        store = opened(*args, **kwargs)  # type: ignore[arg-type]
        store.raw = _DropsAfterCommit(store.raw)  # type: ignore[attr-defined]
        return store

    monkeypatch.setattr(restore, "open_store", open_then_drop)
    with pytest.raises(psycopg.OperationalError):
        restore.restore_backup(backup, laptop, clock=CLOCK, replace=True)
    monkeypatch.undo()
    with Vault.open(desktop) as other, pytest.raises(NotFound):  # the server did commit: the store was replaced
        other.get(OWNER, later)
    kept = [p for p in (laptop / "backups").glob("memvault-*-pre-restore*.db")]
    assert len(kept) == 1  # the only copy of what the store held is still there
    with Vault.open(laptop) as vault, _open_backup(kept[0], vault.ctx.key) as copy:
        assert copy.maintenance.existing_ids([later]) == [later]


def test_checking_a_backup_leaves_its_bytes_and_a_rewrite_records_its_new_digest(homes: tuple[Path, Path]) -> None:
    laptop, _ = homes
    with Vault.open(laptop) as vault:
        secret = vault.add(OWNER, Draft.of(statement="The shed padlock code is written in the blue notebook"))["id"]
        made = Path(vault.backup(OWNER)["path"])
        [row] = vault.list_backups(OWNER)
    assert row["sha256"] == sha256_of(made)
    assert doctor.run(laptop, clock=CLOCK)["ok"]
    doctor.run(laptop, clock=CLOCK, fix=True)
    assert sha256_of(made) == row["sha256"]  # checked twice, not rewritten
    assert sorted(p.name for p in (laptop / "backups").iterdir()) == [made.name, f"{made.name}-keys"]
    with Vault.open(laptop) as vault:
        asked = vault.request_purge(OWNER, PurgeRequest.parse({"id": secret, "reason": "privacy"}))
        assert vault.confirm_purge(OWNER, asked["request_id"])["backups"]["rewritten"] == [str(made)]
        [after] = vault.list_backups(OWNER)
    assert after["sha256"] == sha256_of(made) != row["sha256"]  # rewritten: its new digest is the recorded one
    assert doctor.run(laptop, clock=CLOCK)["ok"]
    assert sha256_of(made) == after["sha256"]


def test_another_homes_backup_put_in_backups_is_reported_and_never_deleted(homes: tuple[Path, Path]) -> None:
    laptop, desktop = homes
    with Vault.open(laptop) as vault:
        secret = vault.add(OWNER, Draft.of(statement="The gate remote lives in the glovebox"))["id"]
        made = Path(vault.backup(OWNER)["path"])
    carried = desktop / "backups" / made.name  # the person copied the laptop's backup, with its -keys
    (desktop / "backups").mkdir(exist_ok=True)
    carried.write_bytes(made.read_bytes())
    Path(f"{carried}-keys").write_bytes(Path(f"{made}-keys").read_bytes())
    before = sha256_of(carried)
    report = doctor.run(desktop, clock=CLOCK, fix=True)
    check = {c["name"]: c for c in report["checks"]}["unrecorded backups"]
    assert not check["ok"] and "a backup from another memvault home" in check["detail"]
    assert "memvault restore" in check["detail"]
    with Vault.open(desktop) as other:
        asked = other.request_purge(OWNER, PurgeRequest.parse({"id": secret, "reason": "privacy"}))
        other.confirm_purge(OWNER, asked["request_id"])
        other.scheduled_backup(OWNER)  # the daemon's follow-up too
        assert str(carried) not in {row["path"] for row in other.list_backups(OWNER)}
    assert carried.is_file() and Path(f"{carried}-keys").is_file() and sha256_of(carried) == before
    assert (
        "a backup from another memvault home"
        in {c["name"]: c for c in doctor.run(desktop, clock=CLOCK)["checks"]}["unrecorded backups"]["detail"]
    )


def test_another_stores_backup_replaces_a_shared_store_with_records_only_when_told(
    homes: tuple[Path, Path], tmp_path: Path
) -> None:
    laptop, desktop = homes
    elsewhere = tmp_path / "elsewhere"
    with Vault.open(elsewhere, create=True, scrypt_n=SCRYPT_N) as vault:  # a store of its own
        theirs = vault.add(OWNER, Draft.of(statement="The other store's note about the attic fan"))["id"]
        backup = Path(vault.backup(OWNER)["path"])
    with Vault.open(laptop) as vault:
        ours = vault.add(OWNER, Draft.of(statement="The shared store's note about the cellar door"))["id"]
        before = _tallies(vault.ctx.store)
    passphrase = os.environ["MEMVAULT_PASSPHRASE"]
    with pytest.raises(Conflict, match="--replace"):
        restore.restore_backup(backup, laptop, clock=CLOCK, backup_secret=passphrase)
    with Vault.open(desktop) as other:
        assert _tallies(other.ctx.store) == before
    assert not list((laptop / "backups").glob("*pre-restore*"))
    restore.restore_backup(backup, laptop, clock=CLOCK, backup_secret=passphrase, replace=True)
    with Vault.open(desktop) as other:
        assert other.get(OWNER, theirs)["memory"]["id"] == theirs
        with pytest.raises(NotFound):
            other.get(OWNER, ours)
