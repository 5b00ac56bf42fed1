"""A turn said as a change ("I switched from X to Y" and its siblings) becomes an update: it
supersedes the stored record about X through the writer's judgement, and is added when none exists."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from importkit import content

from memvault.core.importers.request import ImportRequest
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER

SAID = {
    "I switched from Vim to Helix for editing.": "I use Vim for editing.",
    "Our team chat moved from Slack to Matrix.": "Our team chat runs on Slack.",
    "I'm no longer at Acme Robotics, now I work at Birchwood Labs.": "I work at Acme Robotics.",
    "We replaced Jenkins with GitHub Actions for CI.": None,  # nothing stored about Jenkins: added
}


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")


def _history(folder: Path) -> Path:
    path = folder / "history.jsonl"
    lines = [{"conversation": f"c{i}", "role": "user", "text": text} for i, text in enumerate(SAID)]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_a_change_supersedes_the_record_about_what_it_replaces(vault: Vault, tmp_path: Path) -> None:
    stored = {old: vault.add(OWNER, Draft.of(statement=old))["id"] for old in SAID.values() if old}
    path = _history(tmp_path)
    before = content(vault)
    dry = vault.imports.run(OWNER, ImportRequest(path=str(path)))
    assert content(vault) == before
    corrections = {c["statement"]: c["target_id"] for c in dry["corrections"]}
    assert corrections == {new: stored[old] for new, old in SAID.items() if old}
    assert [a["statement"] for a in dry["additions"]] == ["We replaced Jenkins with GitHub Actions for CI."]

    done = vault.imports.run(OWNER, ImportRequest(path=str(path), commit=True))
    assert done["counts"]["corrected"] == 3 and done["counts"]["added"] == 1
    for old_id in stored.values():
        assert vault.get(OWNER, old_id)["memory"]["status"] == "superseded"
    vault.imports.rollback(OWNER, str(done["batch_id"]))
    assert all(vault.get(OWNER, old_id)["memory"]["status"] == "current" for old_id in stored.values())


def test_of_two_records_holding_what_a_change_replaces_the_one_it_is_about_is_corrected(
    vault: Vault, tmp_path: Path
) -> None:
    about = vault.add(OWNER, Draft.of(statement="Atlas uses Dagster as the orchestrator rather than Airflow."))["id"]
    vault.add(OWNER, Draft.of(statement="Atlas: eight of the eleven billing reports run in Dagster."))
    path = tmp_path / "atlas.md"
    path.write_text(
        "# Atlas\n\n## user\nWe switched the Atlas orchestrator from Dagster to Prefect.\n", encoding="utf-8"
    )
    dry = vault.imports.run(OWNER, ImportRequest(path=str(path)))
    assert [(c["target_id"], c["replaces"]) for c in dry["corrections"]] == [
        (about, "Atlas uses Dagster as the orchestrator rather than Airflow.")
    ]
