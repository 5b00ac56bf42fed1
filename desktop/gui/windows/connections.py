"""Settings → Connections: web assistants connected over OAuth, and the requests waiting for an answer.

A request is what an assistant's authorization page is waiting for (docs/oauth.md): the person
checks that the pairing code here is the one on the page, then approves (all the scopes asked, or
fewer: untick some) or denies. A connection can be revoked (after a confirmation); its tokens stop at
their next request. Everything comes from `Vault.oauth` (owner only); no token or code is ever
shown. Client names are the clients' own claims: shown as plain text, never as rich text.

The section reloads on `PRINCIPAL_CHANGED` (answers and revocations in the feed; new requests,
which the feed does not carry, are announced by the tray's look, desktop/gui/tray.py) and every few
seconds while requests wait (their ages move; they expire after 10 minutes) and for a while after
one stops waiting: the client exchanges its code for the connection without a word to the feed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QCheckBox,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memvault.core.operations.changes import ChangeKind
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.oauth import SCOPE_WORDS, ConnectionRevoked, ConnectionRow, OAuthDecision, OAuthRequestRow
from memvault.desktop.gui import human_time
from memvault.desktop.gui.item_tables import Cell, ItemTable
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.tray import client_name

TABLE_ROWS = (2, 8)  # the list of connections is as tall as its rows, within these
TICK_MS = 3000  # while requests wait (their ages, the ones that expired) or a connection may follow one
FOLLOW_SECONDS = 130.0  # after a request stops waiting: its code (120 s) may still become a connection
NO_REQUESTS = "No application is asking to connect."
NO_CONNECTIONS = (
    "No web assistant is connected. To connect ChatGPT or Claude on the web, run "
    "memvault serve --http with --public-url (see docs/oauth.md) and add its /mcp address in the assistant; "
    "its request then appears here for you to approve."
)


@dataclass(frozen=True)
class Overview:
    """What the section shows, read in one errand: the requests waiting, the connections, and the store's now."""

    pending: list[OAuthRequestRow]
    connections: list[ConnectionRow]
    now: datetime


def overview(vault: Vault, caller: Caller) -> Overview:
    return Overview(vault.oauth.pending(caller), vault.oauth.connections(caller), vault.clock.now())


def _plain(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)  # a client's name could hold markup
    label.setWordWrap(True)
    return label


def scope_names(scopes: list[str]) -> str:
    return ", ".join(scope.removeprefix("memory:") for scope in scopes)


def connection_state(row: ConnectionRow, now: datetime) -> Cell:
    if row["revoked_at"]:
        return Cell(f"revoked {human_time.human(row['revoked_at'], now)}", row["revoked_reason"] or "")
    if row["refresh_until"]:
        return Cell("live", f"may renew its access until {human_time.hover(row['refresh_until'])}")
    return Cell("ended", "unused for 30 days: its tokens expired")


def connection_row(row: ConnectionRow, now: datetime) -> list[object]:
    last = row["refreshed_at"]
    return [
        Cell(client_name(row["client_name"]), f"client {row['client_id']}\nconnection {row['id']}"),
        Cell(scope_names(row["scopes"]), "\n".join(f"{s}: {SCOPE_WORDS.get(s, s)}" for s in row["scopes"])),
        Cell(human_time.human(row["created_at"], now), human_time.hover(row["created_at"])),
        Cell(
            human_time.human(last, now) if last else "not since connecting",
            "When it last renewed its access (an access token lasts 15 minutes)."
            + (f"\n{human_time.hover(last)}" if last else ""),
        ),
        connection_state(row, now),
    ]


class RequestCard(QFrame):
    """One waiting request: who asks, the pairing code, where it returns, what it asks; Approve / Deny."""

    approve = Signal(str, object)  # pairing code, the scopes granted (None: all it asked for)
    deny = Signal(str)

    def __init__(self, request: OAuthRequestRow, now: datetime, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.code = request["id"]
        name = client_name(request["client_name"])
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setBackgroundRole(QPalette.ColorRole.Base)  # stands out from the page in either palette
        self.setAutoFillBackground(True)
        self.setAccessibleName(f"Connection request {self.code} from {name}")
        grid = QGridLayout(self)
        title = _plain(f"{name} asks to connect")
        bold = QFont(title.font())
        bold.setBold(True)
        title.setFont(bold)
        self.pairing = QLabel(self.code)
        self.pairing.setTextFormat(Qt.TextFormat.PlainText)
        self.pairing.setFont(_pairing_font(title.font()))
        self.pairing.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.pairing.setToolTip("The pairing code: the assistant's page shows the same one")
        self.pairing.setAccessibleName(f"Pairing code {self.code}")
        self.details = _plain()
        self.checks: dict[str, QCheckBox] = {}
        scopes = QVBoxLayout()
        for scope in request["scopes"]:
            check = QCheckBox(f"{scope} — {SCOPE_WORDS.get(scope, scope)}")
            check.setChecked(True)
            check.setAccessibleName(f"Grant {scope} to {name}")
            check.toggled.connect(self._update_buttons)
            scopes.addWidget(check)
            self.checks[scope] = check
        self.approve_button = QPushButton("Approve")
        self.approve_button.setAccessibleName(f"Approve request {self.code} from {name}")
        self.approve_button.clicked.connect(self._approve)
        self.deny_button = QPushButton("Deny")
        self.deny_button.setAccessibleName(f"Deny request {self.code} from {name}")
        self.deny_button.clicked.connect(self._deny)
        hint = _plain("Approve only if the assistant's page shows this same code. Untick what it should not get.")
        hint.setEnabled(False)  # secondary text
        buttons = QHBoxLayout()
        buttons.addWidget(hint, 1)
        buttons.addWidget(self.deny_button)
        buttons.addWidget(self.approve_button)
        grid.addWidget(title, 0, 0)
        grid.addWidget(self.pairing, 0, 1, 2, 1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.details, 1, 0)
        grid.addLayout(scopes, 2, 0, 1, 2)
        grid.addLayout(buttons, 3, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        self.show_age(now)

    def show_age(self, now: datetime) -> None:
        request = self.request
        asked = human_time.human(request["created_at"], now)
        expires = human_time.parse(request["expires_at"])
        left = max(0, round((expires - now).total_seconds() / 60)) if expires else 0
        until = f"{left} minute{'s' if left != 1 else ''} left" if left else "expires in under a minute"
        self.details.setText(f"Returns to {request['redirect_host']} · asked {asked} · {until}")
        self.details.setToolTip(
            "The address it will send you back to identifies it; the name above is its own.\n"
            f"Asked {human_time.hover(request['created_at'])}"
        )

    def granted(self) -> list[str]:
        return [scope for scope, check in self.checks.items() if check.isChecked()]

    def _update_buttons(self) -> None:
        self.approve_button.setEnabled(bool(self.granted()))

    def _answering(self) -> None:
        for button in (self.approve_button, self.deny_button):
            button.setEnabled(False)

    def _approve(self) -> None:
        granted = self.granted()
        if not granted:
            return
        self._answering()
        self.approve.emit(self.code, None if len(granted) == len(self.checks) else granted)

    def _deny(self) -> None:
        self._answering()
        self.deny.emit(self.code)

    def answer_failed(self) -> None:
        self.deny_button.setEnabled(True)
        self._update_buttons()


def _pairing_font(base: QFont) -> QFont:
    font = QFont("monospace")
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setPointSizeF(base.pointSizeF() * 1.5)
    font.setBold(True)
    font.setLetterSpacing(QFont.SpacingType.PercentageSpacing, 110)
    return font


class ConnectionsPanel(QGroupBox):
    """The Connections section of Settings."""

    pending_changed = Signal(list)  # the requests waiting now (OAuthRequestRow), after each load

    def __init__(self, ops: Operations, parent: QWidget | None = None) -> None:
        super().__init__("Connections (ChatGPT, Claude on the web)", parent)
        self.ops = ops
        self.cards: dict[str, RequestCard] = {}
        self.connections: list[ConnectionRow] = []
        self.confirmation: QMessageBox | None = None
        self._following_until = 0.0  # time.monotonic() until which a connection may still appear
        intro = _plain(
            "Web assistants connect through OAuth and see only memories marked remote_allowed. "
            "You approve each connection here; nothing on their web page can."
        )
        self.requests_title = _heading("Waiting for your answer")
        self.requests_box = QVBoxLayout()
        self.no_requests = _plain(NO_REQUESTS)
        self.table = ItemTable(("Application", "Scopes", "Connected", "Last active", "State"), "OAuth connections")
        self.table.selectionModel().selectionChanged.connect(self._update_revoke)
        revoke_key = QShortcut(QKeySequence(Qt.Key.Key_Delete), self.table, context=Qt.ShortcutContext.WidgetShortcut)
        revoke_key.activated.connect(self.revoke_selected)
        self.revoke_button = QPushButton("Re&voke…")
        self.revoke_button.setToolTip("End the selected connections (Delete); their tokens stop at once")
        self.revoke_button.setAccessibleName("Revoke the selected connections")
        self.revoke_button.clicked.connect(self.revoke_selected)
        self.no_connections = _plain(NO_CONNECTIONS)
        self.message = _plain()
        self.message.hide()  # shown with what an action said
        row = QHBoxLayout()
        row.addWidget(self.revoke_button)
        row.addStretch(1)
        column = QVBoxLayout(self)
        gap = self.fontMetrics().height() // 2
        column.addWidget(intro)
        column.addSpacing(gap)
        column.addWidget(self.requests_title)
        column.addLayout(self.requests_box)
        column.addWidget(self.no_requests)
        column.addSpacing(gap)
        column.addWidget(_heading("Connected"))
        column.addWidget(self.no_connections)
        column.addWidget(self.table)
        column.addLayout(row)
        column.addWidget(self.message)
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self.reload)
        ops.changed.connect(self._on_changed)
        self._update_revoke()
        self.reload()

    def say(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))

    # -- loading ---------------------------------------------------------------------------------
    def _on_changed(self, changes: Changes) -> None:
        if changes.touches(ChangeKind.PRINCIPAL_CHANGED):
            self.reload()

    def reload(self) -> None:
        self.ops.run(lambda v: overview(v, self.ops.caller), self._show, self._refused)

    def _show(self, seen: Overview) -> None:
        if set(self.cards) - {request["id"] for request in seen.pending}:
            self._following_until = time.monotonic() + FOLLOW_SECONDS
        self._show_requests(seen.pending, seen.now)
        self.connections = sorted(seen.connections, key=lambda c: c["revoked_at"] is not None)  # live ones first
        self.table.refill([connection_row(row, seen.now) for row in self.connections])
        self._fit_table()
        for shown in (self.table, self.revoke_button):
            shown.setVisible(bool(self.connections))
        self.no_connections.setVisible(not self.connections)
        self._update_revoke()
        if seen.pending or time.monotonic() < self._following_until:
            if not self.timer.isActive():
                self.timer.start()
        else:
            self.timer.stop()
        self.pending_changed.emit(seen.pending)

    def _fit_table(self) -> None:
        low, high = TABLE_ROWS
        rows = min(max(self.table.row_count(), low), high)
        header = self.table.horizontalHeader().sizeHint().height()
        self.table.setFixedHeight(
            header + rows * self.table.verticalHeader().defaultSectionSize() + 2 * self.table.frameWidth()
        )

    def _show_requests(self, pending: list[OAuthRequestRow], now: datetime) -> None:
        """Keep the card of a request still waiting (its ticks stay as the person left them)."""
        waiting = {request["id"]: request for request in pending}
        for code in [code for code in self.cards if code not in waiting]:
            gone = self.cards.pop(code)
            self.requests_box.removeWidget(gone)
            gone.hide()
            gone.deleteLater()
        for code, request in waiting.items():
            if code not in self.cards:
                card = self.cards[code] = RequestCard(request, now)
                card.approve.connect(self.approve)
                card.deny.connect(self.deny)
                self.requests_box.addWidget(card)
            self.cards[code].show_age(now)
        self.no_requests.setVisible(not waiting)

    def _refused(self, error: MemvaultError) -> None:
        self.say(error.message)

    # -- answering requests ----------------------------------------------------------------------
    def approve(self, code: str, scopes: list[str] | None) -> None:
        self.ops.run(
            lambda v: v.oauth.approve(self.ops.caller, code, scopes),
            self._approved,
            lambda error: self._not_answered(code, error),
            writes=True,
        )

    def deny(self, code: str) -> None:
        self.ops.run(
            lambda v: v.oauth.deny(self.ops.caller, code),
            self._denied,
            lambda error: self._not_answered(code, error),
            writes=True,
        )

    def _approved(self, done: OAuthDecision) -> None:
        self.say(
            f"Approved {done['id']} ({client_name(done['client_name'])}): {' '.join(done['scopes'])}. "
            "Its page now sends the browser back to it."
        )

    def _denied(self, done: OAuthDecision) -> None:
        self.say(f"Denied {done['id']} ({client_name(done['client_name'])}).")

    def _not_answered(self, code: str, error: MemvaultError) -> None:
        self.say(error.message)
        card = self.cards.get(code)
        if card is not None:
            card.answer_failed()
        self.reload()

    # -- revoking --------------------------------------------------------------------------------
    def selected_live(self) -> list[ConnectionRow]:
        rows = [self.connections[r] for r in self.table.selected_rows() if r < len(self.connections)]
        return [row for row in rows if not row["revoked_at"]]

    def _update_revoke(self) -> None:
        self.revoke_button.setEnabled(bool(self.selected_live()))

    def revoke_selected(self) -> None:
        """Ask first (a window-modal question, not a blocking one); revoke on "Revoke"."""
        chosen = self.selected_live()
        if not chosen:
            self.say("Select a live connection to revoke first.")
            return
        names = ", ".join(client_name(row["client_name"]) for row in chosen)
        box = QMessageBox(QMessageBox.Icon.Question, "Revoke connection?", "", parent=self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(
            f"Revoke {names}? It loses access at its next request. To connect again it has to ask again, "
            "and you approve it again."
        )
        confirm = box.addButton("Revoke", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        ids = [row["id"] for row in chosen]
        box.buttonClicked.connect(lambda button: self._confirmed(button, confirm, ids))
        self.confirmation = box
        box.open()

    def _confirmed(self, clicked: QAbstractButton, confirm: QAbstractButton, ids: list[str]) -> None:
        self.confirmation = None
        if clicked is not confirm:
            return
        self.ops.run(
            lambda v: [v.oauth.revoke(self.ops.caller, connection) for connection in ids],
            self._revoked,
            self._refused,
            writes=True,
        )

    def _revoked(self, done: list[ConnectionRevoked]) -> None:
        self.say(
            "Revoked: " + ", ".join(f"{row['id']} ({row['revoked_tokens']} token(s) stopped)" for row in done) + "."
        )


def _heading(text: str) -> QLabel:
    label = QLabel(text)
    font = QFont(label.font())
    font.setBold(True)
    label.setFont(font)
    return label
