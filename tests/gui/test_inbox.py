"""The approval inbox: approve, reject and batch-approve by click and key; a purge needs the typed word."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from shellkit import Seeded

from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import NotFound
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import ListRequest
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.windows.inbox import WHEN, InboxView


def open_inbox(qtbot: QtBot, ops: Operations) -> InboxView:
    view = InboxView(ops)
    qtbot.addWidget(view)
    view.show()
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow, timeout=5000)  # the A and R keys reach the active window
    qtbot.waitUntil(lambda: len(view.items) == 4, timeout=10000)
    return view


def select(view: InboxView, *proposal_ids: str) -> None:
    view.table.clearSelection()
    for row, item in enumerate(view.items):
        if item.id in proposal_ids:
            view.table.selectionModel().select(
                view.table.model().index(row, 0),
                view.table.selectionModel().SelectionFlag.Select | view.table.selectionModel().SelectionFlag.Rows,
            )


def pending_ids(vault: Vault) -> set[str]:
    return {p["id"] for p in vault.proposals(OWNER)}


def test_every_pending_proposal_is_listed_and_a_correction_shows_old_beside_new(
    qtbot: QtBot, ops: Operations, seeded: Seeded
) -> None:
    view = open_inbox(qtbot, ops)
    assert {item.id for item in view.items} == set(seeded.proposals.values())
    select(view, seeded.proposals["correct"])
    shown = view.detail.toPlainText()
    assert "Mara prefers tea over coffee in the morning" in shown  # now
    assert "Mara prefers green tea in the morning" in shown  # proposed
    assert "she said so on the phone" in shown  # the evidence given
    assert "SUPERSEDE" in shown


def test_one_click_approves_a_correction(qtbot: QtBot, ops: Operations, vault: Vault, seeded: Seeded) -> None:
    view = open_inbox(qtbot, ops)
    select(view, seeded.proposals["correct"])
    qtbot.mouseClick(view.approve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(view.items) == 3, timeout=10000)
    old = vault.get(OWNER, seeded.records["tea"])["memory"]
    assert old["status"] == "superseded"
    assert vault.get(OWNER, old["superseded_by_id"])["memory"]["statement"] == "Mara prefers green tea in the morning"
    assert seeded.proposals["correct"] not in pending_ids(vault)


def test_the_r_key_rejects_and_nothing_is_written(qtbot: QtBot, ops: Operations, vault: Vault, seeded: Seeded) -> None:
    view = open_inbox(qtbot, ops)
    select(view, seeded.proposals["archive"])
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_R)
    qtbot.waitUntil(lambda: len(view.items) == 3, timeout=10000)
    assert vault.get(OWNER, seeded.records["bike"])["memory"]["status"] == "current"
    assert [p["id"] for p in vault.proposals(OWNER, status="rejected")] == [seeded.proposals["archive"]]


def test_a_batch_approves_with_one_key_and_leaves_the_purge_waiting(
    qtbot: QtBot, ops: Operations, vault: Vault, seeded: Seeded
) -> None:
    view = open_inbox(qtbot, ops)
    view.table.selectAll()
    assert len(view.selected()) == 4
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_A)
    qtbot.waitUntil(lambda: len(view.items) == 1, timeout=10000)
    assert pending_ids(vault) == {seeded.proposals["purge"]}
    assert vault.get(OWNER, seeded.records["bike"])["memory"]["status"] == "archived"
    pets = vault.list_memories(OWNER, ListRequest(domain="pets"))
    assert [m["statement"] for m in pets["items"]] == ["Mara's cat is called Pixel"]
    assert "one at a time" in view.message.text()


def test_a_purge_needs_the_typed_word(qtbot: QtBot, ops: Operations, vault: Vault, seeded: Seeded) -> None:
    view = open_inbox(qtbot, ops)
    select(view, seeded.proposals["purge"])
    shown = view.detail.toPlainText()
    assert "The pottery kiln at Lindenhof is fired on Thursdays" in shown and "backup" in shown
    assert view.confirm_edit.isVisible() and not view.approve_button.isEnabled()
    qtbot.keyClicks(view.confirm_edit, "purg")
    assert not view.approve_button.isEnabled()
    qtbot.keyClick(view.confirm_edit, Qt.Key.Key_E)
    assert view.approve_button.isEnabled()
    qtbot.mouseClick(view.approve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(view.items) == 3, timeout=20000)
    with pytest.raises(NotFound):
        vault.get(OWNER, seeded.records["kiln"])


def test_an_empty_inbox_says_what_it_is_for(qtbot: QtBot, ops: Operations, vault: Vault) -> None:
    for proposal in vault.proposals(OWNER):
        if proposal["kind"] == "purge":
            vault.reject_purge(OWNER, proposal["id"])
        else:
            vault.reject(OWNER, proposal["id"])
    view = InboxView(ops)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: view.list_stack.currentWidget() is view.empty, timeout=10000)
    assert "Nothing is waiting for your review" in view.empty.text()


def test_when_a_proposal_came_reads_as_people_say_it(qtbot: QtBot, ops: Operations, seeded: Seeded) -> None:
    view = open_inbox(qtbot, ops)
    when = view.table.rows.index(0, WHEN)
    assert when.data() == "just now"  # staged by the fixture a moment ago
    assert "UTC" in when.data(Qt.ItemDataRole.ToolTipRole)  # the exact time on hover
    select(view, seeded.proposals["add"])
    lines = view.detail.toPlainText().splitlines()
    proposed_at = lines[lines.index("Proposed at") + 1]
    assert proposed_at.startswith("just now · ") and not re.search(r"\d{4}-\d\d-\d\dT", proposed_at)  # no ISO string
    assert lines[lines.index("Type") + 1] == "Fact"  # the type in words, not FACT
    select(view, seeded.proposals["correct"])  # old beside new: its times too
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:", view.detail.toPlainText())
