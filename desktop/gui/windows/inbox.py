"""The approval inbox: every pending proposal with what it would change; approve or reject in one go.

Keys: A approves the selection, R (or Delete) rejects it; the selection may hold many rows.
A purge request is never approved in a batch: it shows what would be removed where and waits for
the word "purge" to be typed. Each row says why the proposal waits (the writer's reason in its first
words, the whole of it on hover and in the detail), and a sensitive record to be added carries a
"sensitive" badge before its statement.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from PySide6.QtCore import (
    QEvent,
    QIdentityProxyModel,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from memvault.core.operations.changes import MEMORY_KINDS, PROPOSAL_KINDS
from memvault.core.vocabulary.errors import MemvaultError
from memvault.desktop.gui import human_time
from memvault.desktop.gui.badges import BADGE_ROLE, BadgeDelegate, badge_html
from memvault.desktop.gui.item_tables import Cell, ItemTable
from memvault.desktop.gui.models.record_page import time_html
from memvault.desktop.gui.models.record_table import plain_words
from memvault.desktop.gui.models.write_reasons import (
    NO_REASON,
    SENSITIVE,
    SENSITIVE_MATTERS,
    is_sensitive,
    proposed_draft,
    waits_because,
    why_waits,
)
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.windows.inbox_items import (
    CLASSIFICATION,
    KIND_TITLES,
    PURGE_REACH,
    InboxItem,
    Outcome,
    decide,
    load_inbox,
)

CONFIRM_WORD = "purge"
EMPTY_TEXT = (
    "Nothing is waiting for your review.\n\n"
    "When an assistant proposes to add, correct, archive or purge a memory and the write mode asks "
    "for review, the proposal appears here. Approve with A, reject with R."
)
COLUMNS = ("What", "Summary", "Why it waits", "By", "When")
SUMMARY, WHY, WHEN = 1, 2, 4  # the summary takes the room left
WHY_SHOWN = "review-before-write"  # the why column is as wide as the commonest reason; a longer one is cut (hover)


def _row(label: str, value: Any) -> str:
    shown = "—" if value in (None, "", []) else escape(str(value))
    return f"<tr><th align=left valign=top>{escape(label)}</th><td>{shown}</td></tr>"


def _shown(value: Any) -> str:
    """A value of the side-by-side table: a time as people say it (exact on hover), else the text."""
    if human_time.parse(value) is not None:
        return time_html(value, whole=False)
    return escape(str(value or "—"))


def _side_by_side(item: InboxItem) -> str:
    now, payload = item.current or {}, item.proposal["payload"]
    rows = [
        ("Statement", now.get("statement"), payload.get("statement")),
        ("Valid from", now.get("valid_from"), payload.get("valid_from") or "when approved"),
    ]
    body = "".join(
        f"<tr><th align=left valign=top>{escape(label)}</th><td>{_shown(old)}</td><td><b>{_shown(new)}</b></td></tr>"
        for label, old, new in rows
    )
    return (
        "<table cellpadding=4 width=100%><tr><th></th><th align=left>Now</th><th align=left>Proposed</th></tr>"
        f"{body}</table>"
    )


def sensitive(item: InboxItem) -> bool:
    """A proposal to add a record the writer judged (or the assistant marked) sensitive."""
    return is_sensitive(proposed_draft(item.proposal))


def describe(item: InboxItem, palette: QPalette) -> str:
    """The detail pane's HTML for one proposal (every value escaped); the badge in `palette`'s colours."""
    proposal = item.proposal
    badge = badge_html(SENSITIVE, palette, f"Sensitive: {SENSITIVE_MATTERS}") if sensitive(item) else ""
    parts = [
        f"<h3>{escape(KIND_TITLES.get(item.kind, item.kind))} · {CLASSIFICATION.get(item.kind, '')}</h3>",
        f"<p>{badge}</p>" if badge else "",
        "<table cellpadding=3>",
        _row("Why it waits", waits_because(proposal)),
        _row("Proposed by", f"{proposal['principal']} ({proposal['surface']})"),
        f"<tr><th align=left valign=top>Proposed at</th><td>{time_html(proposal['created_at'])}</td></tr>",
        _row("Reasoning", proposal.get("reason")),
        "</table>",
    ]
    payload = proposal["payload"]
    if item.kind == "add":
        draft = payload.get("draft", {})
        parts += ["<table cellpadding=3>"]
        shown = {**draft, "type": plain_words(draft.get("type"))} if draft.get("type") else draft
        parts += [_row(k.replace("_", " ").capitalize(), shown.get(k)) for k in _ADD_FIELDS]
        parts += ["</table>"]
    elif item.kind == "correct":
        parts += [_side_by_side(item), "<p><b>Evidence</b></p><table cellpadding=3>"]
        parts += [_row("Reason given", payload.get("reason")), _row("Source", payload.get("source_reference"))]
        parts += ["</table>"]
    elif item.kind in ("archive", "restore"):
        now = item.current or {}
        parts += ["<table cellpadding=3>", _row("Record", proposal.get("target_id"))]
        parts += [_row("Statement", now.get("statement")), _row("Status now", now.get("status")), "</table>"]
    elif item.purge is not None:
        parts.append(_purge_text(item))
    return "".join(parts)


_ADD_FIELDS = ("statement", "type", "domain", "access_scope", "sensitivity", "confidence", "source", "evidence")


def _purge_text(item: InboxItem) -> str:
    preview = item.purge or {}
    statements = preview.get("statements", {})
    removed = "".join(f"<li>{escape(i)}: {escape(str(statements.get(i, '')))}</li>" for i in preview.get("ids", []))
    where = "".join(f"<li>{escape(place)}</li>" for place in PURGE_REACH)
    return (
        f"<p><b>Will be removed for good ({len(preview.get('ids', []))} record(s)):</b></p><ul>{removed}</ul>"
        f"<p><b>From:</b></p><ul>{where}</ul><p>{item.backups} backup(s) will be rewritten. "
        f"This cannot be undone. Type <b>{CONFIRM_WORD}</b> below to confirm.</p>"
    )


def _cells(item: InboxItem) -> tuple[Cell, str, Cell, str, Cell]:
    """What (the writer's classification on hover: the detail says it too), the summary, why it waits (the
    whole reason on hover), who proposed it, when."""
    title = KIND_TITLES.get(item.kind, item.kind)
    what = Cell(title, f"{title} ({CLASSIFICATION.get(item.kind, '')})")
    why = Cell(why_waits(item.proposal) or "—", waits_because(item.proposal) or NO_REASON)
    when = item.proposal["created_at"]
    return (what, item.summary(), why, item.proposal["principal"], Cell(human_time.human(when), human_time.hover(when)))


class _Badged(QIdentityProxyModel):
    """The inbox's rows with a sensitive proposal's summary marked: the badge drawn before it
    (`BadgeDelegate`), and its word said to screen readers before the summary."""

    def __init__(self, sensitive_row: Callable[[int], bool], parent: QObject) -> None:
        super().__init__(parent)
        self.sensitive_row = sensitive_row

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        marked = role in (BADGE_ROLE, Qt.ItemDataRole.AccessibleTextRole) and index.column() == SUMMARY
        if marked and index.isValid() and self.sensitive_row(index.row()):
            return SENSITIVE if role == BADGE_ROLE else f"{SENSITIVE}: {super().data(index)}"
        return super().data(index, role)


class InboxView(QWidget):
    """Pending proposals (multi-select), their detail, and the buttons and keys that decide them."""

    pending_changed = Signal(int)

    def __init__(self, ops: Operations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.items: list[InboxItem] = []
        self.last_decisions: list[Outcome] = []
        self._build()
        ops.changed.connect(self._on_changed)
        self.reload()

    def _build(self) -> None:
        self.table = ItemTable(COLUMNS, "Pending proposals", stretch=SUMMARY)
        self.badged = _Badged(lambda row: row < len(self.items) and sensitive(self.items[row]), self.table)
        self.badged.setSourceModel(self.table.rows)
        self.table.setModel(self.badged)  # a new model: the header forgets which section stretches
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(SUMMARY, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(WHY, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(WHY, self.fontMetrics().horizontalAdvance(WHY_SHOWN) + 2 * self.fontMetrics().height())
        self.table.setItemDelegateForColumn(SUMMARY, BadgeDelegate(self.table))
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._selection_changed())
        self.empty = QLabel(EMPTY_TEXT)
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.list_stack = QStackedWidget()
        self.list_stack.addWidget(self.empty)
        self.list_stack.addWidget(self.table)
        self.detail = QTextBrowser()
        self.detail.setAccessibleName("What the proposal would change")
        self.confirm_edit = QLineEdit()
        self.confirm_edit.setPlaceholderText(f'Type "{CONFIRM_WORD}" to confirm the purge')
        self.confirm_edit.setAccessibleName("Purge confirmation")
        self.confirm_edit.textChanged.connect(self._update_buttons)
        self.approve_button = QPushButton("&Approve (A)")
        self.reject_button = QPushButton("&Reject (R)")
        self.approve_button.clicked.connect(self.approve_selected)
        self.reject_button.clicked.connect(self.reject_selected)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self._layout()
        for key, slot in (("A", self.approve_selected), ("R", self.reject_selected), ("Delete", self.reject_selected)):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        self._update_buttons()

    def _layout(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self.confirm_edit, 1)
        buttons.addWidget(self.approve_button)
        buttons.addWidget(self.reject_button)
        right = QWidget()
        column = QVBoxLayout(right)
        column.addWidget(self.detail, 1)
        column.addLayout(buttons)
        column.addWidget(self.message)
        splitter = QSplitter()
        splitter.addWidget(self.list_stack)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([580, 420])  # the proposal's detail (old beside new) needs room to read
        outer = QVBoxLayout(self)
        outer.addWidget(splitter)

    # -- loading -------------------------------------------------------------------------------
    def _on_changed(self, changes: Changes) -> None:
        if changes.touches(*MEMORY_KINDS, *PROPOSAL_KINDS):
            self.reload()

    def reload(self) -> None:
        caller = self.ops.caller
        self.ops.run(lambda v: load_inbox(v, caller), self._populate, self._failed)

    def _populate(self, items: list[InboxItem]) -> None:
        selected = {item.id for item in self.selected()}
        # No selection signals while rows are replaced and reselected: the selection is shown once, at the end.
        selection = self.table.selectionModel()
        selection.blockSignals(True)
        try:
            self.items = items
            self.table.refill([_cells(item) for item in items])
            rows = [row for row, item in enumerate(items) if item.id in selected] or ([0] if items else [])
            flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
            for row in rows:
                selection.select(self.badged.index(row, 0), flags)
        finally:
            selection.blockSignals(False)
        self.table.viewport().update()
        self.list_stack.setCurrentWidget(self.table if items else self.empty)
        self._selection_changed()
        self.pending_changed.emit(len(items))

    def _failed(self, error: MemvaultError) -> None:
        self.message.setText(f"Could not read the inbox: {error.message}")

    # -- selection and decisions -------------------------------------------------------------
    def selected(self) -> list[InboxItem]:
        return [self.items[row] for row in self.table.selected_rows() if row < len(self.items)]

    def _selection_changed(self) -> None:
        chosen = self.selected()
        if len(chosen) == 1:
            self.detail.setHtml(describe(chosen[0], self.palette()))
        elif chosen:
            self.detail.setHtml(f"<h3>{len(chosen)} proposals selected</h3><p>A approves all, R rejects all.</p>")
        else:
            self.detail.setHtml("")
        self.confirm_edit.clear()
        self._update_buttons()

    def changeEvent(self, event: QEvent) -> None:
        """A new palette (light or dark): the badge in the detail is drawn again in its colours."""
        super().changeEvent(event)
        chosen = self.selected()
        if event.type() == QEvent.Type.PaletteChange and len(chosen) == 1:
            self.detail.setHtml(describe(chosen[0], self.palette()))

    def _update_buttons(self) -> None:
        chosen = self.selected()
        purge_alone = len(chosen) == 1 and chosen[0].needs_typed_confirmation
        self.confirm_edit.setVisible(purge_alone)
        typed = self.confirm_edit.text().strip().lower() == CONFIRM_WORD
        self.approve_button.setText("&Confirm purge" if purge_alone else "&Approve (A)")
        self.approve_button.setEnabled(bool(chosen) and (typed if purge_alone else True))
        self.reject_button.setEnabled(bool(chosen))

    def approve_selected(self) -> None:
        chosen = self.selected()
        note = ""
        if len(chosen) == 1 and chosen[0].needs_typed_confirmation:
            if self.confirm_edit.text().strip().lower() != CONFIRM_WORD:
                self.message.setText(f'A purge needs the word "{CONFIRM_WORD}" typed first.')
                return
        elif any(item.needs_typed_confirmation for item in chosen):
            note = " Purge requests are confirmed one at a time; they were left out of this batch."
            chosen = [item for item in chosen if not item.needs_typed_confirmation]
        self._decide(chosen, approve=True, note=note)

    def reject_selected(self) -> None:
        self._decide(self.selected(), approve=False)

    def _decide(self, chosen: list[InboxItem], *, approve: bool, note: str = "") -> None:
        if not chosen:
            return
        caller = self.ops.caller
        self.approve_button.setEnabled(False)
        self.reject_button.setEnabled(False)
        self.ops.run(
            lambda v: decide(v, caller, chosen, approve),
            lambda decisions: self._decided(decisions, approve, note),
            self._failed,
            writes=True,
        )

    def _decided(self, decisions: list[Outcome], approved: bool, note: str) -> None:
        self.last_decisions = decisions
        done = [d for d in decisions if d.ok]
        refused = [d for d in decisions if not d.ok]
        text = f"{'Approved' if approved else 'Rejected'} {len(done)}."
        if refused:
            text += " Not done: " + "; ".join(f"{d.proposal_id} ({d.detail})" for d in refused)
        self.message.setText(text + note)
