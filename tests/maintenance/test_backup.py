"""Backups: encrypted from the first byte, private, recorded, consistent while another process writes."""

from __future__ import annotations

import stat
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from maintkit import dump_db, integrity_ok, open_db, run_python, store_key

from memvault.core.maintenance.files import sha256_of
from memvault.core.store.sqlcipher.connection import PLAINTEXT_HEADER
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Forbidden, InvalidArgument
from memvault.core.vocabulary.model import OWNER, Caller, Surface
from memvault.desktop.cli import main


def test_backup_is_encrypted_private_recorded_and_opens_with_the_key(
    vault: Vault, home: Path, filled: dict[str, str]
) -> None:
    info = vault.backup(OWNER)
    path = Path(info["path"])
    assert path.parent == home / "backups" and info["encrypted"] is True
    assert path.read_bytes()[:16] != PLAINTEXT_HEADER
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE((home / "backups").stat().st_mode) == 0o700
    assert info["bytes"] == path.stat().st_size and info["sha256"] == sha256_of(path)
    listed = vault.list_backups(OWNER)
    assert [(r["path"], r["sha256"], r["kind"]) for r in listed] == [(str(path), info["sha256"], "manual")]
    key = store_key(home)
    assert integrity_ok(path, key)
    copy = dump_db(path, key)
    assert {r[0] for r in copy["memories"]} == set(filled.values())
    assert len(copy["memory_fts_data"]) > 0  # the text index came along
    with pytest.raises(Exception, match="not a database"):
        open_db(path, b"\x01" * 32)


def test_backup_to_a_folder_or_new_file_never_overwrites(vault: Vault, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    in_folder = Path(vault.backup(OWNER, to=str(outside))["path"])
    assert in_folder.parent == outside
    named = outside / "mine.db"
    assert vault.backup(OWNER, to=str(named))["path"] == str(named)
    with pytest.raises(InvalidArgument, match="never overwrites"):
        vault.backup(OWNER, to=str(named))
    with pytest.raises(InvalidArgument, match="not a folder"):
        vault.backup(OWNER, to=str(tmp_path / "no" / "such" / "x.db"))
    assert {r["path"] for r in vault.list_backups(OWNER)} == {str(in_folder), str(named)}


def test_remote_callers_cannot_back_up(vault: Vault) -> None:
    with pytest.raises(Forbidden):
        vault.backup(Caller("chatgpt-tunnel", Surface.REMOTE))
    assert vault.list_backups(OWNER) == []


WRITER = """
import sys, time
from memvault.core.vocabulary.model import OWNER
from memvault.core.vault import Vault
home, stop = sys.argv[1], sys.argv[2]
from pathlib import Path
from memvault.core.vocabulary.drafts import Draft
with Vault.open(home) as vault:
    n = 0
    while not Path(stop).exists() and n < 400:
        vault.add(OWNER, Draft.of(statement=f"Fictional writer note number {n} about kestrels", tags=[f"n{n}"]))
        n += 1
"""


def test_backups_taken_while_another_process_writes_are_consistent(vault: Vault, home: Path, tmp_path: Path) -> None:
    stop = tmp_path / "stop"
    writer = run_python(WRITER, str(home), str(stop))
    try:
        deadline = time.monotonic() + 60
        while vault.status(OWNER)["counts"]["total"] < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        made = [Path(vault.backup(OWNER)["path"])]
        started = vault.status(OWNER)["counts"]["total"]
        while len(made) < 3 or (vault.status(OWNER)["counts"]["total"] == started and len(made) < 30):
            time.sleep(0.05)
            made.append(Path(vault.backup(OWNER)["path"]))
        made.append(Path(vault.backup(OWNER)["path"]))  # taken after the writer was seen to move on
    finally:
        stop.touch()
        assert writer.wait(timeout=120) == 0, writer.stderr.read().decode() if writer.stderr else ""
    key = store_key(home)
    totals = []
    for path in made:
        assert integrity_ok(path, key)
        copy = dump_db(path, key)
        memories = {r[0] for r in copy["memories"]}
        added = {r[5] for r in copy["events"] if r[4] == "added"}
        # one snapshot: every record has its event, usage row and index row, and nothing half-written
        assert memories == added
        assert len(copy["memory_usage"]) == len(memories) == len(copy["memory_fts_docsize"])
        totals.append(len(memories))
    assert totals == sorted(totals) and totals[-1] > totals[0] > 0  # the writer kept going meanwhile


def test_daily_schedule_keeps_seven_daily_and_four_weekly(home: Path) -> None:
    clock = FixedClock(datetime(2026, 3, 1, 3, 0, tzinfo=UTC))
    with Vault.open(home, clock=clock) as vault:
        vault.add(OWNER, Draft.of(statement="Fictional: the pier opens at dawn"))
        first = vault.scheduled_backup(OWNER)
        assert first["made"]["kind"] == "weekly"
        assert vault.scheduled_backup(OWNER)["made"] is None  # once a day
        for _ in range(60):
            clock.advance(days=1)
            vault.scheduled_backup(OWNER)
        kept = vault.list_backups(OWNER)
        kinds = sorted(r["kind"] for r in kept)
        assert kinds.count("daily") == 7 and kinds.count("weekly") == 4
        assert all(r["exists"] for r in kept)
        on_disk = sorted(p.name for p in (home / "backups").iterdir())
        expected = sorted(Path(r["path"]).name for r in kept)
        assert on_disk == sorted(expected + [f"{name}-keys" for name in expected])  # each with its wrapped key
        newest_weekly = max(r["created_at"] for r in kept if r["kind"] == "weekly")
        assert newest_weekly >= (clock.now() - timedelta(days=7)).strftime("%Y-%m-%d")


def test_cli_backup_prints_only_the_path(home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["backup"]) == 0
    printed = capsys.readouterr().out.strip()
    assert Path(printed).is_file() and Path(printed).parent == home / "backups"
    assert main(["backup", "--to", str(tmp_path)]) == 0
    assert Path(capsys.readouterr().out.strip()).parent == tmp_path
    assert main(["backup", "--list"]) == 0
    assert printed in capsys.readouterr().out
