"""The import dialog on a real store (the shell's seeded fictional data) with the importers' fictional
fixtures: a dry run changes nothing, a commit adds, a roll back restores, a stopped commit resumes,
and a malformed file is named with its place and nothing is written."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

sys.path.insert(0, str(Path(__file__).parents[1] / "importers"))
sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))

from fake_export import write_export
from importkit import FIXTURES, content, copy_fixture

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.desktop.gui.main_window import MainWindow
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.tray import Tray
from memvault.desktop.gui.windows.import_dialog import ImportDialog

WAIT = 30_000
PEANUTS = "I'm allergic to peanuts."


def _dialog(qtbot: QtBot, ops: Operations, path: Path) -> ImportDialog:
    dialog = ImportDialog(ops)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.choose(str(path))
    qtbot.waitUntil(lambda: not ops.busy, timeout=WAIT)
    return dialog


def _dry_run(qtbot: QtBot, ops: Operations, dialog: ImportDialog) -> None:
    qtbot.mouseClick(dialog.dry_button, _left())
    qtbot.waitUntil(lambda: not ops.busy and dialog.running is None, timeout=WAIT)
    assert dialog.report is not None, dialog.message.text()


def _left() -> Qt.MouseButton:
    return Qt.MouseButton.LeftButton


def test_the_format_is_detected_and_a_dry_run_shows_the_report_and_writes_nothing(
    qtbot: QtBot, ops: Operations, vault: Vault, tmp_path: Path
) -> None:
    dialog = _dialog(qtbot, ops, copy_fixture("claude_conversations.json", tmp_path))
    assert dialog.detected.text().startswith("Claude data export (detected): ")
    assert not dialog.commit_button.isEnabled()  # nothing to commit before a report
    assert dialog.table.row_count() == 0 and dialog.batch_message.text().startswith("No imports yet")
    before = content(vault)
    _dry_run(qtbot, ops, dialog)
    shown = dialog.view.toPlainText()
    assert "Dry run: nothing was written" in shown and "Additions (5)" in shown and PEANUTS in shown
    for section in ("Corrections", "Exclusions", "Weak candidates", "Sensitivity flags", "Estimated impact"):
        assert section in shown
    assert content(vault) == before and not vault.imports.batches(OWNER)
    assert dialog.commit_button.isEnabled() and dialog.discard_button.isEnabled()
    qtbot.mouseClick(dialog.discard_button, _left())
    assert dialog.report is None and dialog.view.toPlainText() == "" and not dialog.commit_button.isEnabled()


def test_commit_adds_and_roll_back_restores(qtbot: QtBot, ops: Operations, vault: Vault, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, ops, copy_fixture("claude_conversations.json", tmp_path))
    before = content(vault)
    _dry_run(qtbot, ops, dialog)
    with qtbot.waitSignal(dialog.imported, timeout=WAIT) as imported:
        qtbot.mouseClick(dialog.commit_button, _left())
    batch = imported.args[0]
    qtbot.waitUntil(lambda: not ops.busy and dialog.table.row_count() == 1, timeout=WAIT)
    assert vault.search(OWNER, SearchRequest.of(query="allergic to peanuts"))["results"]
    assert dialog.table.text(0, 0) == batch and dialog.table.text(0, 4) == "5"
    dialog.table.selectRow(0)
    qtbot.mouseClick(dialog.rollback_button, _left())  # asks first
    assert (
        "Confirm" in dialog.rollback_button.text() and vault.search(OWNER, SearchRequest.of(query="peanuts"))["results"]
    )
    qtbot.mouseClick(dialog.rollback_button, _left())
    qtbot.waitUntil(lambda: dialog.batch_message.text().startswith("Rolled back"), timeout=WAIT)
    qtbot.waitUntil(lambda: not ops.busy, timeout=WAIT)
    assert content(vault) == before
    assert not vault.search(OWNER, SearchRequest.of(query="allergic to peanuts"))["results"]
    assert dialog.table.text(0, 1) == "rolled back" and not dialog.rollback_button.isEnabled()


def test_a_stopped_commit_ends_after_a_whole_chunk_and_resumes(
    qtbot: QtBot, ops: Operations, vault: Vault, tmp_path: Path
) -> None:
    dialog = _dialog(qtbot, ops, write_export(tmp_path / "conversations.json", 40))
    dialog.chunk.setValue(4)
    _dry_run(qtbot, ops, dialog)

    def stop_after_first_chunk(done: int, _total: int, _counts: object) -> None:
        if done:
            dialog.relay.stop.set()

    dialog.relay.moved.connect(stop_after_first_chunk, Qt.ConnectionType.DirectConnection)  # on the worker
    qtbot.mouseClick(dialog.commit_button, _left())
    qtbot.waitUntil(lambda: not ops.busy and dialog.running is None, timeout=WAIT)
    assert "Commit again to resume" in dialog.message.text()
    (batch,) = vault.imports.batches(OWNER)
    assert batch["chunks_done"] == 1 and batch["chunks_total"] == 10 and not batch["finished_at"]
    conversations = vault.ctx.store.raw.execute("SELECT count(*) FROM conversations").fetchone()[0]
    assert conversations == 4 * batch["chunks_done"]  # whole chunks only
    dialog.relay.moved.disconnect(stop_after_first_chunk)
    assert dialog.commit_button.text() == "&Resume commit" and dialog.commit_button.isEnabled()
    with qtbot.waitSignal(dialog.imported, timeout=WAIT):
        qtbot.mouseClick(dialog.commit_button, _left())
    (batch,) = vault.imports.batches(OWNER)
    assert batch["chunks_done"] == 10 and batch["finished_at"]
    assert vault.ctx.store.raw.execute("SELECT count(*) FROM conversations").fetchone()[0] == 40


def test_a_stopped_dry_run_writes_nothing(qtbot: QtBot, ops: Operations, vault: Vault, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, ops, write_export(tmp_path / "conversations.json", 40))
    before = content(vault)
    dialog.relay.moved.connect(lambda *_: dialog.relay.stop.set(), Qt.ConnectionType.DirectConnection)
    qtbot.mouseClick(dialog.dry_button, _left())
    qtbot.waitUntil(lambda: not ops.busy and dialog.running is None, timeout=WAIT)
    assert dialog.message.text() == "Dry run stopped: nothing was written." and dialog.report is None
    assert content(vault) == before and not vault.imports.batches(OWNER)


def test_a_malformed_file_is_named_with_its_place_and_nothing_is_written(
    qtbot: QtBot, ops: Operations, vault: Vault, tmp_path: Path
) -> None:
    broken = tmp_path / "conversations.json"
    raw = (FIXTURES / "claude_conversations.json").read_bytes()
    broken.write_bytes(raw[: len(raw) // 2])  # truncated
    before = content(vault)
    dialog = _dialog(qtbot, ops, broken)
    shown = dialog.detected.text()
    assert shown.startswith("Cannot import: ") and str(broken) in shown and "line " in shown
    assert "nothing was imported" in shown
    assert not dialog.dry_button.isEnabled() and not dialog.commit_button.isEnabled()
    assert content(vault) == before and not vault.imports.batches(OWNER)


def test_ctrl_i_in_the_main_window_opens_the_one_import_dialog(qtbot: QtBot, ops: Operations) -> None:
    window = MainWindow(ops, Tray(ops))
    qtbot.addWidget(window)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)  # shortcuts reach the active window
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.import_dialog is not None and window.import_dialog.isVisible(), timeout=5000)
    assert window.open_import() is window.import_dialog


def test_the_folder_button_asks_for_any_export_folder_and_an_unzipped_claude_export_is_read(
    qtbot: QtBot, ops: Operations, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Folders are unzipped ChatGPT and Claude exports too, not only Codex sessions: the button and the
    folder chooser say so, and a Claude folder picked with it is recognised as Claude's."""
    folder = tmp_path / "claude-export"
    folder.mkdir()
    copy_fixture("claude_conversations.json", folder).rename(folder / "conversations.json")
    (folder / "users.json").write_text('[{"uuid": "u1", "full_name": "Sam Fictional"}]', encoding="utf-8")
    asked: list[str] = []

    def chooser(_parent: object, caption: str, _start: str) -> str:  # the system's folder dialog
        asked.append(caption)
        return str(folder)

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", chooser)
    dialog = ImportDialog(ops)
    qtbot.addWidget(dialog)
    dialog.show()
    assert "Codex" not in dialog.folder_button.text() and "folder" in dialog.folder_button.text().replace("&", "")
    assert dialog.folder_button.accessibleName() == "Choose an export folder"
    assert "ChatGPT or Claude" in dialog.folder_button.toolTip()
    qtbot.mouseClick(dialog.folder_button, _left())
    assert asked == ["Choose an export folder"]
    qtbot.waitUntil(lambda: dialog.detected.text().startswith("Claude data export (detected): "), timeout=WAIT)
    assert dialog.path.text() == str(folder) and dialog.dry_button.isEnabled()
