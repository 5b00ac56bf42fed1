"""The tray: an icon showing pending proposals and the kill switch, and the menu that controls both.

Its kill-switch menu sets this machine's position; on a home using a shared store a second menu
sets the store-wide one, which every machine honours. The icon shows the position in force (the
stronger of the two: core/security/kill_switch.py), the tooltip which position holds it.

The menu's actions also live in the main window's menu bar, so a desktop without a system tray
loses nothing but the icon (the window says so).

It also looks for OAuth authorization requests waiting for the person (a web assistant asking to
connect, docs/oauth.md) every few seconds: starting one writes no event to the change feed, so
nothing else would tell the app. Each new request is notified once (its name and pairing code,
nothing else), and a change in the waiting set is announced as `PRINCIPAL_CHANGED` so the
Connections section of Settings reloads.
"""

from __future__ import annotations

import logging
import unicodedata
from typing import Any

from PySide6.QtCore import QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QColor, QFont, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QMenu, QSystemTrayIcon
from shiboken6 import Shiboken

from memvault.core.operations.changes import MEMORY_KINDS, PROPOSAL_KINDS, ChangeKind
from memvault.core.security.kill_switch import Positions, read_machine
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.model import KillSwitch, WriteMode
from memvault.core.vocabulary.oauth import OAuthRequestRow
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.theme import icon_path

log = logging.getLogger("memvault.gui")

KILL_SWITCH_LABELS = {
    KillSwitch.OFF.value: "Off",
    KillSwitch.REMOTE.value: "Stop remote calls",
    KillSwitch.ALL.value: "Stop everything",
}
ICON_SIZE = 64
REQUEST_LOOK_MS = 5000  # how often waiting OAuth requests are looked for (they wait 10 minutes)
NAME_CHARS = 60  # a client's name is its own claim: shown plain and cut short


def client_name(name: str | None) -> str:
    """An OAuth client's name as it calls itself, safe to show as plain text on one line."""
    text = "".join(" " if unicodedata.category(ch).startswith("C") else ch for ch in name or "")
    text = " ".join(text.split())
    if not text:
        return "An unnamed application"
    return text if len(text) <= NAME_CHARS else text[: NAME_CHARS - 1].rstrip() + "…"


def request_notice(requests: list[OAuthRequestRow]) -> str:
    """The notification for requests not notified before: names and pairing codes, never a secret."""
    if len(requests) == 1:
        name, code = client_name(requests[0]["client_name"]), requests[0]["id"]
        return f"{name} asks to connect — open memvault to approve (code {code})."
    codes = ", ".join(request["id"] for request in requests)
    return f"{len(requests)} applications ask to connect — open memvault to approve (codes {codes})."


def tray_icon(pending: int, kill_switch: KillSwitch) -> QIcon:
    """The app icon with a red stroke when a kill switch is in force and a badge with the pending count."""
    pixmap = QPixmap(ICON_SIZE, ICON_SIZE)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    QIcon(icon_path()).paint(painter, 0, 0, ICON_SIZE, ICON_SIZE)
    if kill_switch is not KillSwitch.OFF:
        pen = painter.pen()
        pen.setColor(QColor("#d93025"))
        pen.setWidth(8)
        painter.setPen(pen)
        painter.drawLine(10, 54, 54, 10)
    if pending:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#e8710a"))
        badge = QRectF(ICON_SIZE * 0.42, 0, ICON_SIZE * 0.58, ICON_SIZE * 0.5)
        painter.drawRoundedRect(badge, 14, 14)
        painter.setPen(QColor("#ffffff"))
        font = QFont()
        font.setBold(True)
        font.setPixelSize(26)
        painter.setFont(font)
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, str(pending) if pending < 100 else "99+")
    painter.end()
    return QIcon(pixmap)


def _tray_state(vault: Vault, ops: Operations) -> dict[str, Any]:
    status = vault.status(ops.caller)
    counts = status["counts"]
    by_domain = counts.get("by_domain")
    return {
        "pending": int(status["pending_proposals"]),
        "kill_switch": vault.kill_switch(),
        "write_mode": str(status["write_mode"]),
        "records": int(str(counts.get("current", 0))),
        "domains": len([name for name in by_domain if name]) if isinstance(by_domain, dict) else 0,
    }


class Tray(QObject):
    """The tray icon and its menu; `refresh` re-reads the state after any change (also the window's counts)."""

    open_requested = Signal()
    quit_requested = Signal()
    proposals_arrived = Signal(int)  # how many new proposals since the last look
    connection_requested = Signal(str)  # the notice for OAuth requests not seen before (names and pairing codes)
    state_changed = Signal()  # pending count, kill switch or pause changed (after a refresh)

    def __init__(self, ops: Operations, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.available = QSystemTrayIcon.isSystemTrayAvailable()
        self.pending = -1  # unknown until the first refresh
        self.records = -1  # current records, for the window's navigation (unknown until the first refresh)
        self.domains = -1  # domains holding records
        self.kill_switch = Positions(KillSwitch.OFF, KillSwitch.OFF)
        self.machine_seen: KillSwitch | None = KillSwitch.OFF  # this machine's file as last looked at
        self.menu = QMenu()
        self.open_action = self.menu.addAction("Open memvault")
        self.open_action.triggered.connect(self.open_requested)
        shared = ops.vault.shares_store
        self.kill_menu = self.menu.addMenu("Kill switch on this machine" if shared else "Kill switch")
        self.kill_actions = self._kill_switch_actions(self.kill_menu, store_wide=False)
        self.store_kill_menu: QMenu | None = None
        self.store_kill_actions: dict[str, QAction] = {}
        if shared:
            self.store_kill_menu = self.menu.addMenu("Kill switch for every machine (store-wide)")
            self.store_kill_actions = self._kill_switch_actions(self.store_kill_menu, store_wide=True)
        self.pause_action = self.menu.addAction("Pause assistant writes")
        self.pause_action.setCheckable(True)
        self.pause_action.setToolTip("Assistants may read but not write (write mode: retrieval-only)")
        self.pause_action.toggled.connect(self._pause_toggled)
        self.menu.addSeparator()
        self.quit_action = self.menu.addAction("Quit memvault")
        self.quit_action.triggered.connect(self.quit_requested)
        self.icon = QSystemTrayIcon(tray_icon(0, KillSwitch.OFF))
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._activated)
        if self.available:
            self.icon.show()
        log.info("gui: system tray %s", "available" if self.available else "not available")
        self.requests_waiting: frozenset[str] = frozenset()  # pairing codes of the OAuth requests waiting
        self._requests_notified: set[str] = set()
        self.last_notice = "inbox"  # where a click on the last notice leads: "inbox" or "connections"
        self._looking = False
        self.request_timer = QTimer(self)
        self.request_timer.setInterval(REQUEST_LOOK_MS)
        self.request_timer.timeout.connect(self.look_for_requests)
        self.request_timer.timeout.connect(self._look_at_machine_switch)
        self.request_timer.start()  # the first look after REQUEST_LOOK_MS: none ahead of the window's first rows
        ops.changed.connect(self._on_changed)
        self.refresh()

    def _kill_switch_actions(self, menu: QMenu, *, store_wide: bool) -> dict[str, QAction]:
        group = QActionGroup(self)
        group.setExclusive(True)
        actions = {}
        for position, label in KILL_SWITCH_LABELS.items():
            action = menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(position == KillSwitch.OFF.value)
            action.triggered.connect(lambda _=False, p=position: self.set_kill_switch(p, store_wide=store_wide))
            group.addAction(action)
            actions[position] = action
        return actions

    def set_kill_switch(self, position: str, *, store_wide: bool = False) -> None:
        self.ops.run(
            lambda v: v.set_kill_switch(self.ops.caller, position, store_wide=store_wide),
            lambda _: self.refresh(),  # this machine's position alone writes nothing the change feed reports
            self._refused,
            writes=True,
        )

    def _look_at_machine_switch(self) -> None:
        """Refresh when this machine's position changed from elsewhere (`memvault kill-switch`): that
        change leaves no event in a shared store. A read of one small file."""
        if read_machine(self.ops.vault.paths) != self.machine_seen:
            self.refresh()

    def _pause_toggled(self, paused: bool) -> None:
        mode = WriteMode.RETRIEVAL_ONLY.value if paused else WriteMode.REVIEW_BEFORE_WRITE.value
        self.ops.run(
            lambda v: v.set_setting(self.ops.caller, "write_mode", mode),
            lambda _: None,
            self._refused,
            writes=True,
        )

    def _refused(self, error: MemvaultError) -> None:
        self.icon.showMessage("memvault", error.message, QSystemTrayIcon.MessageIcon.Warning)
        self.refresh()

    def _on_changed(self, changes: Changes) -> None:
        if changes.touches(*MEMORY_KINDS, *PROPOSAL_KINDS, ChangeKind.SETTING_CHANGED, ChangeKind.DOMAIN_CHANGED):
            self.refresh()
        if changes.touches(ChangeKind.PRINCIPAL_CHANGED):  # a request answered here or in the CLI
            self.look_for_requests()

    def look_for_requests(self) -> None:
        """Read the OAuth requests waiting now (one look at a time)."""
        if self._looking:
            return
        self._looking = True
        self.ops.run(lambda v: v.oauth.pending(self.ops.caller), self._requests, self._requests_unread)

    def _requests_unread(self, error: MemvaultError) -> None:
        self._looking = False
        log.debug("gui: connection requests not read (%s)", error.code)

    def _requests(self, waiting: list[OAuthRequestRow]) -> None:
        self._looking = False
        codes = frozenset(request["id"] for request in waiting)
        new = [request for request in waiting if request["id"] not in self._requests_notified]
        self._requests_notified &= codes  # a code is random: once gone, it never comes back
        self._requests_notified |= codes
        if codes != self.requests_waiting:
            self.requests_waiting = codes
            if self.pending >= 0:  # else the first refresh says it all
                self.icon.setToolTip(self.summary())
                self.state_changed.emit()
            self.ops.announce(Changes.of((ChangeKind.PRINCIPAL_CHANGED,), codes))
        if new:
            notice = request_notice(new)
            self.connection_requested.emit(notice)
            if self.available:
                self.last_notice = "connections"
                self.icon.showMessage("memvault", notice, QSystemTrayIcon.MessageIcon.Information)

    def refresh(self) -> None:
        self.ops.run(lambda v: _tray_state(v, self.ops), self._show)

    def _show(self, state: dict[str, Any]) -> None:
        pending, kill_switch = state["pending"], state["kill_switch"]
        if self.pending >= 0 and pending > self.pending:
            self._notify(pending - self.pending)
        self.pending, self.kill_switch = pending, kill_switch
        self.machine_seen = None if kill_switch.machine_unreadable else kill_switch.machine
        self.records, self.domains = state["records"], state["domains"]
        self.kill_actions[kill_switch.machine].setChecked(True)
        if self.store_kill_actions:
            self.store_kill_actions[kill_switch.store].setChecked(True)
        self.pause_action.blockSignals(True)
        self.pause_action.setChecked(state["write_mode"] == WriteMode.RETRIEVAL_ONLY.value)
        self.pause_action.blockSignals(False)
        self.icon.setIcon(tray_icon(pending, kill_switch.in_force))
        self.icon.setToolTip(self.summary())
        self.state_changed.emit()

    def summary(self) -> str:
        parts = [f"memvault: {self.pending} proposal{'s' if self.pending != 1 else ''} waiting"]
        in_force = self.kill_switch.in_force
        if in_force is not KillSwitch.OFF:
            parts.append(f"kill switch: {KILL_SWITCH_LABELS[in_force].lower()} ({self.kill_switch.held_by})")
        if self.pause_action.isChecked():
            parts.append("assistant writes paused")
        if self.requests_waiting:
            count = len(self.requests_waiting)
            parts.append(f"{count} connection request{'s' if count != 1 else ''} waiting")
        return "; ".join(parts)

    def _notify(self, new: int) -> None:
        self.proposals_arrived.emit(new)
        if self.available:
            self.last_notice = "inbox"
            text = "An assistant proposed a change" if new == 1 else f"Assistants proposed {new} changes"
            self.icon.showMessage(
                "memvault", f"{text}: review it in the inbox.", QSystemTrayIcon.MessageIcon.Information
            )

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (QSystemTrayIcon.ActivationReason.Trigger, QSystemTrayIcon.ActivationReason.DoubleClick):
            self.open_requested.emit()

    def hide(self) -> None:
        self.icon.hide()

    def dispose(self) -> None:
        """Delete the icon and the menu now (they have no parent widget), before the QApplication goes."""
        self.request_timer.stop()
        self.icon.hide()
        Shiboken.delete(self.icon)
        Shiboken.delete(self.menu)
