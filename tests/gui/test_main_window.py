"""The main window and the tray: navigation by keyboard, the tray menu's kill switch and pause,
the pending count, and a window that works (and says so) without a system tray."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSystemTrayIcon
from pytestqt.qtbot import QtBot
from shellkit import Seeded

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.desktop.gui.main_window import NO_TRAY, PAGES, MainWindow
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.tray import Tray


def open_window(qtbot: QtBot, ops: Operations) -> MainWindow:
    tray = Tray(ops)
    window = MainWindow(ops, tray)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: tray.pending >= 0, timeout=10000)
    return window


def test_every_view_is_reachable_by_keyboard(qtbot: QtBot, ops: Operations) -> None:
    window = open_window(qtbot, ops)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)  # shortcuts reach the active window
    for number, (name, _) in enumerate(PAGES, start=1):
        qtbot.keyClick(window, Qt.Key(Qt.Key.Key_0 + number), Qt.KeyboardModifier.ControlModifier)
        assert window.current_page() == name
    window.nav.setFocus()
    qtbot.keyClick(window.nav, Qt.Key.Key_Up)
    assert window.current_page() == PAGES[-2][0]


def test_the_tray_menu_kill_switch_reaches_the_store(qtbot: QtBot, ops: Operations, vault: Vault) -> None:
    window = open_window(qtbot, ops)
    tray = window.tray
    tray.kill_actions["all"].trigger()
    qtbot.waitUntil(lambda: vault.get_setting("kill_switch") == "all", timeout=10000)
    qtbot.waitUntil(lambda: "stop everything" in tray.icon.toolTip(), timeout=10000)
    tray.kill_actions["remote"].trigger()
    qtbot.waitUntil(lambda: vault.get_setting("kill_switch") == "remote", timeout=10000)
    tray.kill_actions["off"].trigger()
    qtbot.waitUntil(lambda: vault.get_setting("kill_switch") == "off", timeout=10000)


def test_pause_assistant_writes_from_the_tray(qtbot: QtBot, ops: Operations, vault: Vault) -> None:
    window = open_window(qtbot, ops)
    window.tray.pause_action.trigger()
    qtbot.waitUntil(lambda: vault.get_setting("write_mode") == "retrieval-only", timeout=10000)
    window.tray.pause_action.trigger()
    qtbot.waitUntil(lambda: vault.get_setting("write_mode") == "review-before-write", timeout=10000)


def test_the_pending_count_and_a_notification_follow_new_proposals(
    qtbot: QtBot, ops: Operations, vault: Vault, seeded: Seeded
) -> None:
    window = open_window(qtbot, ops)
    assert window.tray.pending == len(seeded.proposals)
    qtbot.waitUntil(lambda: window.nav.count_of("Inbox") == len(seeded.proposals), timeout=10000)
    vault.add(LOCAL_ASSISTANT, Draft(statement="Mara waters the ferns on Sundays", domain="garden"))
    with qtbot.waitSignal(window.tray.proposals_arrived, timeout=10000) as arrived:
        window.tray.refresh()
    assert arrived.args == [1]
    assert window.tray.pending == len(seeded.proposals) + 1


def test_without_a_system_tray_the_window_says_so_and_closing_quits(qtbot: QtBot, ops: Operations) -> None:
    window = open_window(qtbot, ops)
    assert not QSystemTrayIcon.isSystemTrayAvailable()  # offscreen: no tray host
    assert window.statusBar().currentMessage() == NO_TRAY
    with qtbot.waitSignal(window.quit_requested, timeout=5000):
        window.close()


def test_owner_writes_from_any_view_refresh_the_tray(
    qtbot: QtBot, ops: Operations, vault: Vault, seeded: Seeded
) -> None:
    window = open_window(qtbot, ops)
    proposal = seeded.proposals["add"]
    ops.run(lambda v: v.reject(OWNER, proposal), lambda _: None, writes=True)
    qtbot.waitUntil(lambda: window.tray.pending == len(seeded.proposals) - 1, timeout=10000)


def test_a_click_on_a_notice_opens_what_it_was_about(qtbot: QtBot, ops: Operations) -> None:
    window = open_window(qtbot, ops)
    window.tray.last_notice = "connections"
    window.tray.icon.messageClicked.emit()
    assert window.stack.currentWidget() is window.page("Settings")
    window.tray.last_notice = "inbox"
    window.tray.icon.messageClicked.emit()
    assert window.stack.currentWidget() is window.page("Inbox")
