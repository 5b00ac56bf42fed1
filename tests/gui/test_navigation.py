"""The main window's navigation and empty states: an icon per view (redrawn for the palette), counts of
records, pending proposals and domains that follow the change feed, Ctrl+F to the search box, and empty
views that say what to do."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from shellkit import Seeded

from memvault.core.operations.changes import ChangeKind
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.desktop.gui.main_window import PAGES, MainWindow
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.theme import apply_scheme
from memvault.desktop.gui.tray import Tray
from memvault.desktop.gui.windows.inbox import EMPTY_TEXT, InboxView
from memvault.desktop.gui.windows.memories import EMPTY_TITLE, MemoriesView

WAIT = 10_000


def open_window(qtbot: QtBot, ops: Operations) -> MainWindow:
    window = MainWindow(ops, Tray(ops))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.tray.pending >= 0, timeout=WAIT)
    return window


@pytest.fixture
def empty_ops(vault: Vault) -> Iterator[Operations]:
    """Operations on a store with nothing in it (no seeded records, no proposals)."""
    operations = Operations(vault)
    yield operations
    operations.shutdown()


def icon_image(icon: QIcon, mode: QIcon.Mode = QIcon.Mode.Normal) -> QImage:
    return icon.pixmap(32, 32, mode).toImage()


def inked(image: QImage) -> list[QColor]:
    found = (image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height()))
    return [colour for colour in found if colour.alpha() > 200]


def test_every_view_has_its_own_icon_in_the_text_colour(qtbot: QtBot, ops: Operations, qapp: QApplication) -> None:
    window = open_window(qtbot, ops)
    images = []
    for row, (name, _) in enumerate(PAGES):
        icon = window.nav.item(row).icon()
        image = icon_image(icon)
        assert len(inked(image)) > 20, name  # a drawing, not an empty square
        images.append(image)
    assert len({bytes(image.constBits()) for image in images}) == len(PAGES)  # all different
    text = window.nav.palette().color(window.nav.palette().ColorRole.Text)
    assert all(abs(c.lightness() - text.lightness()) < 40 for c in inked(images[0]))
    apply_scheme(qapp, Qt.ColorScheme.Dark)
    try:
        qtbot.waitUntil(  # redrawn light on the dark palette
            lambda: all(c.lightness() > 160 for c in inked(icon_image(window.nav.item(0).icon()))), timeout=5000
        )
    finally:
        apply_scheme(qapp, Qt.ColorScheme.Light)


def test_counts_show_records_pending_proposals_and_domains(
    qtbot: QtBot, ops: Operations, vault: Vault, seeded: Seeded
) -> None:
    window = open_window(qtbot, ops)
    counts = vault.status(OWNER)["counts"]
    assert window.nav.count_of("Memories") == counts["current"]
    assert window.nav.count_of("Inbox") == len(seeded.proposals)
    assert window.nav.count_of("Domains") == len(counts["by_domain"])  # type: ignore[arg-type]
    assert window.nav.count_of("Timeline") is None
    inbox = window.nav.item([n for n, _ in PAGES].index("Inbox"))
    assert inbox.data(Qt.ItemDataRole.AccessibleTextRole) == f"Inbox, {len(seeded.proposals)} waiting"


def test_counts_follow_the_change_feed(qtbot: QtBot, ops: Operations, vault: Vault, seeded: Seeded) -> None:
    window = open_window(qtbot, ops)
    records, pending = window.nav.count_of("Memories"), window.nav.count_of("Inbox")
    assert records is not None and pending is not None
    # Written by another process (the CLI, an assistant): the window hears of it through the feed.
    added = vault.add(OWNER, Draft(statement="Mara repots the fig tree every spring", domain="plants"))["id"]
    staged = vault.add(LOCAL_ASSISTANT, Draft(statement="Mara's bike is blue", domain="routine"))["proposal_id"]
    ops.announce(Changes.of((ChangeKind.MEMORY_ADDED, ChangeKind.PROPOSAL_STAGED), [added, staged]))
    qtbot.waitUntil(lambda: window.nav.count_of("Memories") == records + 1, timeout=WAIT)
    qtbot.waitUntil(lambda: window.nav.count_of("Inbox") == pending + 1, timeout=WAIT)
    assert window.nav.count_of("Domains") == len(vault.status(OWNER)["counts"]["by_domain"])  # type: ignore[arg-type]
    for proposal in (*seeded.proposals.values(), staged):
        vault.reject(OWNER, proposal)
    ops.announce(Changes.of((ChangeKind.PROPOSAL_DECIDED,), []))
    qtbot.waitUntil(lambda: window.nav.count_of("Inbox") is None, timeout=WAIT)  # nothing waiting: no badge


def test_ctrl_f_goes_to_the_search_box_from_any_view(qtbot: QtBot, ops: Operations) -> None:
    window = open_window(qtbot, ops)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    window.show_page("Domains")
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    memories = window.page("Memories")
    assert isinstance(memories, MemoriesView)
    assert window.current_page() == "Memories"
    qtbot.waitUntil(memories.search.hasFocus, timeout=5000)


def test_an_empty_store_says_how_memories_arrive(qtbot: QtBot, empty_ops: Operations) -> None:
    window = open_window(qtbot, empty_ops)
    memories = window.page("Memories")
    assert isinstance(memories, MemoriesView)
    qtbot.waitUntil(lambda: memories.rows_or_empty.currentWidget() is memories.empty, timeout=WAIT)
    assert memories.empty.isVisible() and not memories.table.isVisible()
    text = memories.empty.text.text()
    assert EMPTY_TITLE == "No memories yet"
    assert "Import history" in text and "memvault add" in text and "Settings" in text
    qtbot.mouseClick(memories.empty.import_button, Qt.MouseButton.LeftButton)
    assert window.import_dialog is not None and window.import_dialog.isVisible()
    window.import_dialog.close()
    qtbot.mouseClick(memories.empty.connect_button, Qt.MouseButton.LeftButton)
    assert window.current_page() == "Settings"
    qtbot.keyClicks(memories.search, "tea")  # a search on an empty store is answered by the table, not this page
    qtbot.waitUntil(lambda: memories.rows_or_empty.currentWidget() is memories.table, timeout=WAIT)
    assert "Nothing matches" in memories.summary.text()


def test_records_replace_the_empty_page_when_they_arrive(qtbot: QtBot, empty_ops: Operations, vault: Vault) -> None:
    view = MemoriesView(empty_ops)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: view.rows_or_empty.currentWidget() is view.empty, timeout=WAIT)
    added = vault.add(OWNER, Draft(statement="Mara prefers tea over coffee", domain="food"))["id"]
    empty_ops.announce(Changes.of((ChangeKind.MEMORY_ADDED,), [added]))
    qtbot.waitUntil(lambda: view.rows_or_empty.currentWidget() is view.table, timeout=WAIT)
    assert view.model.rowCount() == 1


def test_an_empty_inbox_says_what_arrives_there(qtbot: QtBot, empty_ops: Operations) -> None:
    view = InboxView(empty_ops)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: not empty_ops.busy, timeout=WAIT)
    assert view.list_stack.currentWidget() is view.empty and view.empty.isVisible()
    assert view.empty.text() == EMPTY_TEXT
    assert "proposes" in EMPTY_TEXT and "Approve with A" in EMPTY_TEXT
