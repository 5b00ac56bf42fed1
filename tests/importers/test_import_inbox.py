"""The watched folder: a dropped export gets a dry run whose report waits in the approval inbox;
approving it commits the import (real watchdog observer, real store)."""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from importkit import FIXTURES, content

from memvault.core.importers.watched_folder import InboxWatcher
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import Conflict
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.search_request import SearchRequest


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")


@pytest.fixture
def watcher(vault: Vault) -> Iterator[InboxWatcher]:
    watching = InboxWatcher(vault.ctx)
    watching.start()
    yield watching
    watching.stop()


def _imports(vault: Vault) -> list[dict[str, object]]:
    return [p for p in vault.proposals(OWNER) if p["kind"] == "import"]


def _wait_for_proposal(vault: Vault, seconds: float = 20) -> list[dict[str, object]]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = _imports(vault)
        if found:
            return found
        time.sleep(0.1)
    return []


def test_a_dropped_export_waits_in_the_inbox_and_approval_commits_it(vault: Vault, watcher: InboxWatcher) -> None:
    before = content(vault)
    shutil.copy(FIXTURES / "claude_conversations.json", watcher.folder / "claude.json")
    (proposal,) = _wait_for_proposal(vault)
    assert "add 5" in str(proposal["reason"]) and "approve to commit" in str(proposal["reason"])
    assert {k: v for k, v in content(vault).items() if k != "proposals"} == {
        k: v for k, v in before.items() if k != "proposals"
    }  # a dry run: nothing but the proposal
    approved = vault.approve(OWNER, str(proposal["id"]))
    assert approved["outcome"] == "imported"
    (batch,) = vault.imports.batches(OWNER)
    assert batch["counts"]["added"] == 5 and batch["finished_at"]
    assert vault.search(OWNER, SearchRequest.of(query="allergic to peanuts"))["results"]
    vault.imports.rollback(OWNER, str(batch["batch_id"]))
    assert not vault.search(OWNER, SearchRequest.of(query="allergic to peanuts"))["results"]


def test_a_file_dropped_twice_is_staged_once_and_a_bad_one_not_at_all(vault: Vault, watcher: InboxWatcher) -> None:
    (watcher.folder / "broken.json").write_text('[{"uuid": "x", "chat_messages": [')
    shutil.copy(FIXTURES / "generic.md", watcher.folder / "notes.md")
    assert len(_wait_for_proposal(vault)) == 1
    watcher.scan()  # everything offered again
    time.sleep(0.5)
    assert len(_imports(vault)) == 1


def test_an_unzipped_claude_export_is_staged_by_its_conversations_alone(vault: Vault) -> None:
    dropped = InboxWatcher(vault.ctx).folder / "claude-export"
    dropped.mkdir()
    shutil.copy(FIXTURES / "claude_conversations.json", dropped / "conversations.json")
    (dropped / "users.json").write_text('[{"uuid": "u1", "full_name": "Sam Fictional"}]')
    (dropped / "projects.json").write_text('[{"uuid": "p1", "name": "Home", "docs": []}]')
    assert vault.imports.stage_inbox(OWNER) == {"staged": 1, "already": 0, "refused": 0}  # users.json is no export
    (proposal,) = _imports(vault)
    assert "conversations.json (claude)" in str(proposal["reason"]) and "add 5" in str(proposal["reason"])


def test_a_file_changed_after_its_dry_run_is_not_committed(vault: Vault, tmp_path: Path) -> None:
    watching = InboxWatcher(vault.ctx)  # not started: offered by hand
    dropped = watching.folder / "notes.md"
    shutil.copy(FIXTURES / "generic.md", dropped)
    watching.offer(dropped)
    (proposal,) = _imports(vault)
    dropped.write_text(dropped.read_text() + "\n## user\nI prefer rain to snow.\n")
    before = content(vault)
    with pytest.raises(Conflict, match="changed since its dry run"):
        vault.approve(OWNER, str(proposal["id"]))
    assert content(vault) == before
