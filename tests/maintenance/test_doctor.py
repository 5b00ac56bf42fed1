"""`memvault doctor`: every problem found, each with the command that fixes it; exit 1 on a problem."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from maintkit import open_db, store_key

from memvault.core.maintenance import doctor
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import SystemClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.desktop.cli import main


def _check(report: dict[str, object], name: str) -> dict[str, object]:
    found = [c for c in report["checks"] if c["name"] == name]  # type: ignore[attr-defined]
    assert found, report
    return found[0]  # type: ignore[no-any-return]


def test_a_healthy_store_passes(
    home: Path, vault: Vault, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "user"))  # no client registrations but this test's own
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "user" / ".codex"))
    vault.backup(OWNER)
    vault.close()
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    for expected in (
        "integrity check: ok",
        "schema ",
        "key backend passphrase",
        "kill switch: off",
        "not registered with any client",
        "disk: store",
        "no problems found",
    ):
        assert expected in out, expected
    assert main(["--json", "doctor"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["disk"]["store"] > 0 and report["disk"]["backups"] > 0


def test_loose_permissions_are_reported_and_fixed(home: Path, vault: Vault, capsys: pytest.CaptureFixture[str]) -> None:
    backup = Path(vault.backup(OWNER)["path"])
    vault.close()
    os.chmod(home / "memvault.db", 0o644)
    os.chmod(home / "backups", 0o755)
    os.chmod(backup, 0o640)
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "BAD  permissions" in out and "fix: memvault doctor --fix" in out
    assert main(["doctor", "--fix"]) == 0
    capsys.readouterr()
    assert stat.S_IMODE((home / "memvault.db").stat().st_mode) == 0o600
    assert stat.S_IMODE((home / "backups").stat().st_mode) == 0o700
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert main(["doctor"]) == 0


def test_leftovers_of_a_killed_restore_are_found_and_removed(home: Path) -> None:
    (home / "memvault.db.restore-abcd.tmp").write_bytes(b"\x00" * 10)
    report = doctor.run(home, clock=SystemClock())
    assert not report["ok"] and _check(report, "leftovers")["fix"] == "memvault doctor --fix"
    assert doctor.run(home, fix=True, clock=SystemClock())["ok"]
    assert not (home / "memvault.db.restore-abcd.tmp").exists()


def test_a_backup_still_holding_a_purged_record_asks_for_a_sweep(home: Path, vault: Vault) -> None:
    kept = vault.add(OWNER, Draft.of(statement="Fictional: the boathouse is painted blue"))["id"]
    vault.backup(OWNER)
    with vault.ctx.transaction() as conn:  # as if a purge had stopped before reaching the backups
        conn.raw.execute("INSERT INTO tombstones VALUES (?, '2026-03-01T00:00:00Z', 'privacy')", (kept,))
    report = doctor.run(home, clock=SystemClock())
    assert str(_check(report, "backups")["fix"]).startswith("memvault purge --sweep") and not report["ok"]
    swept = vault.sweep_purged(OWNER)
    assert swept["store_records_removed"] == 1 and len(swept["backups"]["rewritten"]) == 1
    assert doctor.run(home, clock=SystemClock())["ok"]


def test_newer_schema_and_wrong_passphrase(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    conn = open_db(home / "memvault.db", store_key(home))
    conn.execute("INSERT INTO schema_version (version, name) VALUES (99, '0099_future.sql')")
    conn.close()
    schema = _check(doctor.run(home, clock=SystemClock()), "schema")
    assert not schema["ok"] and schema["fix"] == "upgrade memvault"
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "not the fictional passphrase")
    key = _check(doctor.run(home, clock=SystemClock()), "key")
    assert not key["ok"] and "MEMVAULT_PASSPHRASE" in str(key["fix"])


def test_no_store_says_how_to_make_one(fresh_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor"]) == 1
    assert "memvault init" in capsys.readouterr().out


def test_backup_files_nobody_recorded_are_recorded_or_removed(home: Path, vault: Vault) -> None:
    good = Path(vault.backup(OWNER)["path"])
    stray = good.with_name("memvault-20260301T000000Z-pre-restore.db")
    good.rename(stray)  # a sound backup a killed restore did not get to record
    broken = good.with_name("memvault-20260301T000001Z-manual.db")
    broken.write_bytes(stray.read_bytes()[:8192])  # a backup killed half-way
    with vault.ctx.transaction() as conn:
        conn.raw.execute("DELETE FROM backups")
    report = doctor.run(home, clock=SystemClock())
    assert not report["ok"] and "not recorded" in _check(report, "unrecorded backups")["detail"]
    fixed = doctor.run(home, fix=True, clock=SystemClock())
    assert fixed["ok"], fixed
    assert not broken.exists() and stray.exists()
    assert [(r["path"], r["kind"]) for r in vault.list_backups(OWNER)] == [(str(stray), "pre-restore")]
