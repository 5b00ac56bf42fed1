"""The change feed as views see it: kinds and ids of each batch, and a write by another process
(the CLI) reaching an open inbox."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pytestqt.qtbot import QtBot
from shellkit import Seeded

from memvault.core.operations.changes import Change, ChangeBatch, ChangeKind
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER, Surface
from memvault.desktop.gui.live import LiveFeed
from memvault.desktop.gui.operations import Changes, Operations, changes_of
from memvault.desktop.gui.windows.inbox import InboxView


def test_a_batch_names_the_kinds_and_ids_views_refresh_on(vault: Vault, seeded: Seeded) -> None:
    start = vault.changes_since(OWNER, None).cursor
    staged = vault.add(LOCAL_ASSISTANT, Draft(statement="Mara's niece starts school in August", domain="family"))
    vault.set_setting(OWNER, "write_mode", "retrieval-only")
    seen = changes_of(vault.changes_since(OWNER, start))
    assert not seen.everything
    assert seen.kinds == {ChangeKind.PROPOSAL_STAGED, ChangeKind.SETTING_CHANGED}
    assert seen.touches(ChangeKind.SETTING_CHANGED) and not seen.touches(ChangeKind.DOMAIN_CHANGED)
    assert staged["proposal_id"] in seen.ids
    assert changes_of(ChangeBatch(cursor=0, reset=True)) == Changes.all()


def test_a_restore_an_unknown_kind_or_a_new_scope_refreshes_everything() -> None:
    for kind in (ChangeKind.STORE_RESTORED, ChangeKind.OTHER, ChangeKind.MEMORY_RESCOPED):
        change = Change(cursor=2, kind=kind, action=kind.value, time="2026-01-01T00:00:00Z", surface=Surface.LOCAL)
        assert changes_of(ChangeBatch(cursor=2, changes=(change,))) == Changes.all()


def test_an_approval_made_with_the_cli_leaves_the_open_inbox(
    qtbot: QtBot, ops: Operations, home: Path, seeded: Seeded
) -> None:
    inbox = InboxView(ops)
    qtbot.addWidget(inbox)
    feed = LiveFeed(ops, inbox)
    qtbot.waitUntil(lambda: len(inbox.items) == 4, timeout=10000)
    announced: list[Changes] = []
    ops.changed.connect(announced.append)
    done = subprocess.run(
        [sys.executable, "-m", "memvault.desktop.cli", "proposals", "approve", seeded.proposals["add"]],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    qtbot.waitUntil(lambda: len(inbox.items) == 3, timeout=5000)
    assert any(seeded.proposals["add"] in change.ids for change in announced)
    feed.stop()
