"""Every control of every view can be reached by keyboard and has a name a screen reader can say; no control
keeps the Tab key (Qt's date boxes did, while they showed "any")."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from memvault.desktop.gui.main_window import PAGES, MainWindow
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.tray import Tray
from memvault.desktop.gui.windows.memories import MemoriesView


def spoken_name(widget: QWidget) -> str:
    """The name assistive technology hears: the accessible name, else a button's text, else its buddy label's."""
    if widget.accessibleName().strip():
        return widget.accessibleName().strip()
    if isinstance(widget, QAbstractButton) and widget.text().replace("&", "").strip():
        return widget.text().replace("&", "").strip()
    labels = [label for label in widget.window().findChildren(QLabel) if label.buddy() is widget]
    return labels[0].text().replace("&", "").strip() if labels else ""


def focusable(root: QWidget) -> list[QWidget]:
    found = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisibleTo(root) or not widget.isEnabled():
            continue
        if not widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            continue
        parent = widget.parentWidget()
        if isinstance(parent, QAbstractScrollArea) and widget is parent.viewport():
            continue  # a scroll area's viewport: the area itself is the control
        if isinstance(parent, QAbstractSpinBox | QComboBox):
            continue  # a spin box's or combo box's own line edit: the box is the control
        found.append(widget)
    return found


def unnamed(root: QWidget) -> list[str]:
    return [f"{type(w).__name__} {w.objectName()!r}" for w in focusable(root) if not spoken_name(w)]


def test_every_focusable_control_of_every_view_has_a_name(qtbot: QtBot, ops: Operations) -> None:
    window = MainWindow(ops, Tray(ops))
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    missing = {}
    for name, _ in PAGES:
        window.show_page(name)
        view = window.page(name)
        qtbot.waitUntil(lambda: not ops.busy, timeout=10000)
        if unnamed(view):
            missing[name] = unnamed(view)
    assert not unnamed(window.nav.parentWidget()), "navigation"
    dialog = window.open_import()
    missing.update({"Import": unnamed(dialog)} if unnamed(dialog) else {})
    window.shutdown()
    assert missing == {}


def test_the_check_finds_a_control_without_a_name(qtbot: QtBot) -> None:
    """The check above can fail: a text field with no name, label or buddy is reported; named, it is not."""
    holder = QWidget()
    qtbot.addWidget(holder)
    field = QLineEdit(holder)
    assert unnamed(holder) == ["QLineEdit ''"]
    field.setAccessibleName("Search memories")
    assert unnamed(holder) == []
    buddy = QLabel("&Entity", holder)
    other = QLineEdit(holder)
    assert unnamed(holder) == ["QLineEdit ''"]
    buddy.setBuddy(other)
    assert unnamed(holder) == []


def test_the_main_controls_are_named_for_what_they_do(qtbot: QtBot, ops: Operations) -> None:
    window = MainWindow(ops, Tray(ops))
    qtbot.addWidget(window)
    window.show()
    memories = window.page("Memories")
    graph = window.page("Graph")
    names = {
        spoken_name(widget)
        for widget in (
            window.nav,
            memories.search,  # type: ignore[attr-defined]
            memories.table,  # type: ignore[attr-defined]
            memories.as_of.check,  # type: ignore[attr-defined]
            memories.columns.button,  # type: ignore[attr-defined]
            memories.detail.buttons["purge"],  # type: ignore[attr-defined]
            graph.canvas,  # type: ignore[attr-defined]
            graph.finder,  # type: ignore[attr-defined]
        )
    }
    assert names == {
        "Views",
        "Search memories",
        "Records",
        "As of",
        "Choose the table's columns",
        "Request a purge of this record",
        "Graph of records, entities and projects",
        "Find a node",
    }
    window.shutdown()


def test_the_keyboard_alone_finds_and_opens_a_record(qtbot: QtBot, ops: Operations) -> None:
    """Ctrl+F, Tab along the filters to the table, arrow keys: the detail pane follows; Tab on to the actions."""
    window = MainWindow(ops, Tray(ops))
    qtbot.addWidget(window)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    memories = window.page("Memories")
    assert isinstance(memories, MemoriesView)
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(memories.search.hasFocus, timeout=5000)
    qtbot.waitUntil(lambda: memories.model.rowCount() >= 3, timeout=10000)  # the listed records
    for _ in range(30):
        if memories.table.hasFocus():
            break
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert memories.table.hasFocus()
    qtbot.keyClick(memories.table, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: memories.detail.detail is not None, timeout=10000)
    first = memories.detail.detail.memory["id"]  # type: ignore[union-attr]
    qtbot.keyClick(memories.table, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: memories.detail.detail.memory["id"] != first, timeout=10000)  # type: ignore[union-attr]
    reached = set()
    for _ in range(10):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        reached.add(QApplication.focusWidget())
    assert memories.detail.buttons["correct"] in reached  # the actions follow the record


def test_tab_reaches_every_control_of_every_view_and_none_keeps_it(qtbot: QtBot, ops: Operations) -> None:
    window = MainWindow(ops, Tray(ops))
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    unreached = {}
    for name, _ in PAGES:
        window.show_page(name)
        view = window.page(name)
        qtbot.waitUntil(lambda: not ops.busy, timeout=10000)
        controls = focusable(view)
        window.nav.setFocus()
        reached = set()
        for _ in range(3 * len(controls) + 10):
            qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
            reached.add(QApplication.focusWidget())
        missed = [f"{type(w).__name__} {spoken_name(w)!r}" for w in controls if w not in reached]
        if missed:
            unreached[name] = missed
    window.shutdown()
    assert unreached == {}
