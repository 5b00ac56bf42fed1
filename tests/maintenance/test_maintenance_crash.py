"""A SIGKILL at a random moment of a backup, a restore or a purge leaves a usable store.

Each round builds its own store, starts the operation in a child process, and
kills it (SIGKILL: no cleanup runs) after a random delay within the time the
operation takes. Then the store must open, pass PRAGMA integrity_check and hold
one of the two states the operation moves between; a purge must be finishable
(`sweep_purged`) so that its text leaves every file.
"""

from __future__ import annotations

import random
import shutil
import signal
import time
from pathlib import Path

import pytest
from maintkit import MARKER, SECRET_STATEMENT, integrity_ok, run_python, store_key, where_found

from memvault.core.maintenance import doctor
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import SystemClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import PurgeRequest

ROUNDS = 5
RECORDS = 250
CHILD = """
import sys
from pathlib import Path
from memvault.core.maintenance import doctor
from memvault.core.vocabulary.model import OWNER
from memvault.core.vault import Vault
home, ready, op, arg = sys.argv[1:5]
if op == "restore":
    Path(ready).touch()
    Vault.restore_backup(arg, home)
    raise SystemExit(0)
with Vault.open(home) as vault:
    Path(ready).touch()
    if op == "backup":
        while True:
            vault.backup(OWNER)
    vault.confirm_purge(OWNER, arg)
"""


@pytest.fixture(autouse=True)
def _lexical_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")  # the model is not what these tests are about


def _build(template_home: Path, target: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, int]:
    """A store of RECORDS records with the secret, one backup before the secret and one after it."""
    shutil.copytree(template_home, target)
    monkeypatch.setenv("MEMVAULT_HOME", str(target))
    with Vault.open(target) as vault:
        for n in range(RECORDS):
            vault.add(OWNER, Draft.of(statement=f"Fictional filler note {n} about tide tables and harbour lights " * 3))
        early = vault.backup(OWNER)["path"]
        secret = vault.add(OWNER, Draft.of(statement=SECRET_STATEMENT))["id"]
        vault.export_markdown(OWNER)
        vault.backup(OWNER)
        request = vault.request_purge(OWNER, PurgeRequest.of(id=secret, reason="privacy"))["request_id"]
    return early, request, RECORDS + 1


def _kill_during(home: Path, op: str, arg: str, delay: float) -> None:
    ready = home.parent / f"{home.name}.ready"
    child = run_python(CHILD, str(home), str(ready), op, arg)
    deadline = time.monotonic() + 60
    while not ready.exists() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)


def _timed(home: Path, op: str, arg: str) -> float:
    started = time.monotonic()
    if op == "restore":
        Vault.restore_backup(arg, home)
    else:
        with Vault.open(home) as vault:
            vault.backup(OWNER) if op == "backup" else vault.confirm_purge(OWNER, arg)
    return time.monotonic() - started


def _usable(home: Path) -> int:
    assert integrity_ok(home / "memvault.db", store_key(home))
    with Vault.open(home) as vault:
        return int(vault.status(OWNER)["counts"]["total"])


@pytest.mark.slow
@pytest.mark.parametrize("op", ["backup", "restore", "purge"])
def test_sigkill_at_random_points_leaves_a_usable_store(
    op: str, template_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(f"memvault-{op}")
    early, request, total = _build(template_home, tmp_path / "calibrate", monkeypatch)
    duration = _timed(tmp_path / "calibrate", op, early if op == "restore" else request)
    for round_no in range(ROUNDS):
        home = tmp_path / f"round{round_no}"
        early, request, total = _build(template_home, home, monkeypatch)
        _kill_during(home, op, early if op == "restore" else request, rng.uniform(0, duration * 1.1))
        count = _usable(home)
        with Vault.open(home) as vault:
            if op == "backup":
                assert count == total
                for row in vault.list_backups(OWNER):  # whatever was recorded is a sound backup
                    assert integrity_ok(Path(row["path"]), store_key(home))
            elif op == "restore":
                assert count in (total, total - 1)  # the old store, or the backup taken before the secret
            else:
                assert count in (total, total - 1)
                pending = [r["id"] for r in vault.list_purge_requests(OWNER)]
                if pending:
                    vault.confirm_purge(OWNER, request)
                else:
                    vault.sweep_purged(OWNER)  # finishes what the killed purge left undone
        doctor.run(home, fix=True, clock=SystemClock())  # records or deletes what the kill left half-done
        assert doctor.run(home, clock=SystemClock())["ok"], doctor.run(home, clock=SystemClock())
        if op == "restore":
            Vault.restore_backup(early, home)  # a later restore is not blocked by what the kill left
            assert _usable(home) == total - 1
            assert not list(home.glob("memvault.db.restore-*"))
        if op == "purge":
            assert where_found(home, store_key(home)) == [], MARKER
            assert _usable(home) == total - 1
