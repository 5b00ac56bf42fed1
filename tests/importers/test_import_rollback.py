"""A rollback undoes exactly its batch: what the person did since stays, and a dry run says so first."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from clikit import run, run_json
from importkit import content

from memvault.core.importers.request import ImportRequest
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest

TEA, SISTER = "I prefer tea over coffee.", "My sister lives in Porto."
RIVER, LEDGER = "I prefer the river path over the main road.", "We decided to use SQLite for the ledger."


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")


def _history(folder: Path) -> Path:
    """A fictional history that says two known things again and two new ones."""
    path = folder / "history.jsonl"
    lines = [
        {"conversation": "a", "role": "user", "text": f"{TEA} {SISTER}", "time": "2026-02-01T08:00:00Z"},
        {"conversation": "b", "role": "user", "text": f"{RIVER} {LEDGER}", "time": "2026-02-02T08:00:00Z"},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _imported(vault: Vault, folder: Path) -> tuple[str, dict[str, str]]:
    """Two records the person had, then the import: the batch and every record by statement."""
    tea = vault.add(OWNER, Draft.of(statement=TEA, type="PREFERENCE"))["id"]
    sister = vault.add(OWNER, Draft.of(statement=SISTER, type="FACT"))["id"]
    report = vault.imports.run(OWNER, ImportRequest.parse({"path": str(_history(folder)), "commit": True}))
    assert report["counts"]["confirmed"] == 2 and report["counts"]["added"] == 2, report["counts"]
    rows = vault.ctx.store.raw.execute(
        "SELECT id, statement FROM memories WHERE import_batch_id = ?", (report["batch_id"],)
    )
    added = {row["statement"]: row["id"] for row in rows}
    return str(report["batch_id"]), {TEA: tea, SISTER: sister, RIVER: added[RIVER], LEDGER: added[LEDGER]}


def _record(vault: Vault, memory_id: str) -> dict[str, Any]:
    row = vault.ctx.store.raw.execute(
        "SELECT status, superseded_by_id FROM memories WHERE id = ?", (memory_id,)
    ).fetchone()
    return {} if row is None else dict(row)


def _person_changes(vault: Vault, ids: dict[str, str]) -> dict[str, str]:
    """After the import the person corrects one confirmed record, archives the other, and corrects one the
    import added; the corrections' ids."""
    tea2 = vault.correct(OWNER, CorrectRequest.of(id=ids[TEA], statement="I prefer green tea over coffee."))["id"]
    vault.archive(OWNER, ArchiveRequest.of(id=ids[SISTER], reason="moved"))
    ledger2 = vault.correct(
        OWNER, CorrectRequest.of(id=ids[LEDGER], statement="We decided to use PostgreSQL for the ledger.")
    )["id"]
    return {TEA: str(tea2), LEDGER: str(ledger2)}


def test_a_rollback_keeps_what_the_person_changed_since(vault: Vault, tmp_path: Path) -> None:
    batch, ids = _imported(vault, tmp_path)
    fixes = _person_changes(vault, ids)
    vault.imports.rollback(OWNER, batch)
    # the corrected record stays superseded by the person's correction, which stays current
    assert _record(vault, ids[TEA]) == {"status": "superseded", "superseded_by_id": fixes[TEA]}
    assert _record(vault, fixes[TEA])["status"] == "current"
    assert _record(vault, ids[SISTER])["status"] == "archived"  # the person's archive holds
    # a record the import added and the person corrected since stays, with its correction
    assert _record(vault, ids[LEDGER]) == {"status": "superseded", "superseded_by_id": fixes[LEDGER]}
    assert _record(vault, fixes[LEDGER])["status"] == "current"
    assert _record(vault, ids[RIVER]) == {}  # what nobody touched since is undone
    current = [r[0] for r in vault.ctx.store.raw.execute("SELECT norm_key FROM memories WHERE status = 'current'")]
    assert len(current) == len(set(current)) == 2  # nothing current twice: the two corrections only


def test_the_rollback_report_lists_what_it_keeps_and_why(vault: Vault, tmp_path: Path) -> None:
    batch, ids = _imported(vault, tmp_path)
    _person_changes(vault, ids)
    report = vault.imports.rollback(OWNER, batch)
    assert (report["dry_run"], report["removed"], report["restored"], report["conversations"]) == (False, 1, 0, 2)
    kept = {k["id"]: k["reason"] for k in report["kept"]}
    assert set(kept) == {ids[TEA], ids[SISTER], ids[LEDGER]}
    assert "status" in kept[ids[SISTER]] and "changed since the import" in kept[ids[TEA]]
    for reason in kept.values():  # ids and field names, never what a record says
        assert not any(statement.rstrip(".") in reason for statement in (TEA, SISTER, RIVER, LEDGER))


def test_a_rollback_dry_run_says_what_would_be_undone_and_writes_nothing(vault: Vault, tmp_path: Path) -> None:
    batch, ids = _imported(vault, tmp_path)
    _person_changes(vault, ids)
    before = content(vault)
    events = vault.ctx.store.raw.execute("SELECT count(*) FROM events").fetchone()[0]
    preview = vault.imports.rollback(OWNER, batch, dry_run=True)
    assert preview["dry_run"] is True and content(vault) == before
    assert vault.ctx.store.raw.execute("SELECT count(*) FROM events").fetchone()[0] == events
    assert vault.imports.batches(OWNER)[0]["status"] == "committed"
    done = vault.imports.rollback(OWNER, batch)
    assert {k: v for k, v in preview.items() if k != "dry_run"} == {k: v for k, v in done.items() if k != "dry_run"}


def test_records_nobody_changed_since_are_put_back(vault: Vault, tmp_path: Path) -> None:
    batch, ids = _imported(vault, tmp_path)
    tea = vault.get(OWNER, ids[TEA])["memory"]
    vault.imports.run(
        OWNER, ImportRequest.parse({"path": str(tmp_path / "history.jsonl")})
    )  # a dry run changes nothing
    report = vault.imports.rollback(OWNER, batch)
    assert (report["removed"], report["restored"], report["kept"]) == (2, 2, [])
    assert _record(vault, ids[RIVER]) == {}
    assert vault.get(OWNER, ids[TEA])["memory"]["last_confirmed_at"] != tea["last_confirmed_at"]


def test_the_cli_rolls_back_with_a_dry_run_first(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Vault.open(home) as vault:
        batch, ids = _imported(vault, tmp_path)
        vault.archive(OWNER, ArchiveRequest.of(id=ids[SISTER]))
    preview = run_json(capsys, "import", "--rollback", batch, "--dry-run")
    assert preview["dry_run"] is True and [k["id"] for k in preview["kept"]] == [ids[SISTER]]
    code, out, _ = run(capsys, "import", "--rollback", batch, "--dry-run")
    assert code == 0 and "would remove 2 records" in out and ids[SISTER] in out and "Nothing was written" in out
    with Vault.open(home) as vault:
        assert vault.imports.batches(OWNER)[0]["status"] == "committed"
    done = run_json(capsys, "import", "--rollback", batch)
    assert done["dry_run"] is False and done["removed"] == 2 and done["restored"] == 1
    with Vault.open(home) as vault:
        assert _record(vault, ids[SISTER])["status"] == "archived"
        assert vault.imports.batches(OWNER)[0]["status"] == "rolled_back"


def test_a_batch_recorded_before_items_kept_their_state_still_keeps_later_changes(vault: Vault, tmp_path: Path) -> None:
    batch, ids = _imported(vault, tmp_path)
    with vault.ctx.transaction() as conn:  # as a store written by an earlier memvault holds it
        conn.raw.execute(
            "UPDATE import_items SET prior = json_remove(prior, '$.after', '$.after_new', '$.sealed', '$.exact')"
            " WHERE batch_id = ?",
            (batch,),
        )
    vault.archive(OWNER, ArchiveRequest.of(id=ids[SISTER]))
    report = vault.imports.rollback(OWNER, batch)
    assert [k["id"] for k in report["kept"]] == [ids[SISTER]] and report["removed"] == 2
    assert _record(vault, ids[SISTER])["status"] == "archived" and _record(vault, ids[TEA])["status"] == "current"
