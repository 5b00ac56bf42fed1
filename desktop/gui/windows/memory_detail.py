"""The Memories view's detail pane: the whole record and the person's actions on it.

Actions (correct, archive, restore, request purge) go through `Operations.run` with
`writes=True`; the Vault decides what is allowed and its refusal is shown as it words it: a
correction holding a secret or a passing mood is not saved, and the pane says which; one the writer
judges sensitive is saved, and the pane says it is kept sensitive and who may read it. A sensitive
record carries a badge under its statement.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QUrl, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.model import Scope
from memvault.desktop.gui.badges import badge_html
from memvault.desktop.gui.models import vault_calls
from memvault.desktop.gui.models.record_page import RECORD_SCHEME, record_html
from memvault.desktop.gui.models.vault_calls import RecordDetail, Row
from memvault.desktop.gui.models.write_reasons import (
    REFUSED,
    SENSITIVE,
    SENSITIVE_MATTERS,
    is_sensitive,
    kept_sensitive,
    refusal,
)
from memvault.desktop.gui.operations import Operations

LIVE = ("current", "partial", "disputed")
ACTION_NAMES = {
    "correct": "Correct this record",
    "archive": "Archive this record",
    "restore": "Restore this record",
    "scope": "Change who may read this record",
    "purge": "Request a purge of this record",
}
EMPTY = (
    "<p><i>Select a record to see all of it here: its provenance, its earlier versions, "
    "its links and entities. Arrow keys move through the table.</i></p>"
)


class ActionForm(QFrame):
    """The inline form of one action: a corrected statement (for a correction) and a reason."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.statement = QPlainTextEdit()
        self.statement.setTabChangesFocus(True)
        self.statement.setAccessibleName("Corrected statement")
        self.statement.setMaximumHeight(self.statement.fontMetrics().height() * 6)  # the record stays in view
        self.scope = QComboBox()
        self.scope.setAccessibleName("Access scope")
        for scope in Scope:
            self.scope.addItem(scope.value, scope.value)
        self.workspace = QLineEdit()
        self.workspace.setPlaceholderText("the workspace's id (workspace_allowed only)")
        self.workspace.setAccessibleName("Workspace")
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("Why (optional, kept with the change)")
        self.reason.setAccessibleName("Reason")
        self.confirm = QPushButton()
        self.cancel = QPushButton("Cancel")
        self.fields = QFormLayout()
        self.fields.addRow("State&ment", self.statement)
        self.fields.addRow("&New scope", self.scope)
        self.fields.addRow("&Workspace", self.workspace)
        self.fields.addRow("&Reason", self.reason)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.cancel)
        buttons.addWidget(self.confirm)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addLayout(self.fields)
        layout.addLayout(buttons)
        self.cancel.clicked.connect(self.hide)
        self.hide()

    def ask(self, title: str, confirm: str, statement: str | None = None, scope: str | None = None) -> None:
        """Show the rows one action needs: a statement (correct), a scope (access scope), else a reason."""
        self.title.setText(title)
        self.confirm.setText(confirm)
        for row, shown in enumerate((statement is not None, scope is not None, scope is not None, scope is None)):
            self.fields.setRowVisible(row, shown)
        self.statement.setPlainText(statement or "")
        self.scope.setCurrentIndex(max(0, self.scope.findData(scope)))
        self.workspace.clear()
        self.reason.clear()
        self.show()
        (self.statement if statement is not None else self.scope if scope is not None else self.reason).setFocus()


class MemoryDetail(QWidget):
    """Shows one record; emits `record_opened` for links to other records and after a correction."""

    record_opened = Signal(str)

    def __init__(self, ops: Operations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.detail: RecordDetail | None = None
        self.moment: str | None = None
        self._pending: Callable[[], None] | None = None
        self.page = QTextBrowser()
        self.page.setOpenLinks(False)
        self.page.setAccessibleName("Record details")
        self.page.anchorClicked.connect(self._follow)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.form = ActionForm()
        self.form.confirm.clicked.connect(self._confirmed)
        self.buttons = {
            "correct": QPushButton("&Correct…"),
            "archive": QPushButton("&Archive…"),
            "restore": QPushButton("R&estore"),
            "scope": QPushButton("Access &scope…"),
            "purge": QPushButton("Request &purge…"),
        }
        self.buttons["correct"].clicked.connect(self._ask_correct)
        self.buttons["archive"].clicked.connect(self._ask_archive)
        self.buttons["restore"].clicked.connect(self.restore)
        self.buttons["purge"].clicked.connect(self._ask_purge)
        self.buttons["scope"].clicked.connect(self._ask_scope)
        for key, button in self.buttons.items():
            button.setAccessibleName(ACTION_NAMES[key])
        # Two rows: the pane stays narrow enough to leave the table its room in a small window.
        grid = QGridLayout()
        for index, button in enumerate(self.buttons.values()):
            grid.addWidget(button, index // 3, index % 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.page, 1)
        layout.addLayout(grid)
        layout.addWidget(self.form)
        layout.addWidget(self.message)
        self.show_detail(None)

    # -- showing -------------------------------------------------------------------------------
    def show_detail(self, detail: RecordDetail | None, moment: str | None = None) -> None:
        self.detail, self.moment = detail, moment
        self.form.hide()
        self.page.setHtml(record_html(detail, moment, self._marks(detail.memory)) if detail else EMPTY)
        status = detail.memory["status"] if detail else None
        self.buttons["correct"].setEnabled(status in LIVE)
        self.buttons["archive"].setEnabled(status in LIVE)
        self.buttons["restore"].setEnabled(status == "archived")
        self.buttons["purge"].setEnabled(detail is not None)
        self.buttons["scope"].setEnabled(status in LIVE)

    def _marks(self, record: Row) -> str:
        """A sensitive record's badge, with what sensitive means and who may read it."""
        if not is_sensitive(record):
            return ""
        badge = badge_html(SENSITIVE, self.palette(), f"Sensitive: {SENSITIVE_MATTERS}")
        # The badge says the word; the line the rest of the writer's words: "(health, ...): kept local_only".
        rest = kept_sensitive(str(record["access_scope"])).removeprefix(SENSITIVE).strip()
        return f"<p>{badge} {escape(rest)}</p>"

    def changeEvent(self, event: QEvent) -> None:
        """A new palette (light or dark): the badge is drawn again in its colours."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self.detail is not None:
            self.page.setHtml(record_html(self.detail, self.moment, self._marks(self.detail.memory)))

    def say(self, text: str) -> None:
        self.message.setText(text)

    def _follow(self, url: QUrl) -> None:
        if url.scheme() == RECORD_SCHEME:
            self.record_opened.emit(url.path())

    # -- actions -------------------------------------------------------------------------------
    def _record(self) -> Row:
        assert self.detail is not None
        return self.detail.memory

    def _ask_correct(self) -> None:
        self._pending = self.correct_from_form
        self.form.ask(
            "Correct this record: the new version supersedes it.", "Save correction", self._record()["statement"]
        )

    def _ask_archive(self) -> None:
        self._pending = self.archive_from_form
        self.form.ask("Archive this record: it leaves every search until restored.", "Archive", None)

    def _ask_scope(self) -> None:
        self._pending = self.scope_from_form
        self.form.ask(
            "Who may read this record (its earlier versions follow).",
            "Change scope",
            scope=self._record()["access_scope"],
        )

    def _ask_purge(self) -> None:
        self._pending = self.purge_from_form
        self.form.ask("Request a purge: it waits in the inbox for your typed confirmation.", "Request purge", None)

    def _confirmed(self) -> None:
        if self._pending is not None:
            self._pending()

    def correct_from_form(self) -> None:
        record, statement, reason = self._record(), self.form.statement.toPlainText().strip(), self.form.reason.text()
        self._write(
            lambda v: vault_calls.correct_record(
                v, self.ops.caller, record["id"], statement, reason, record["revision"]
            )
        )

    def archive_from_form(self) -> None:
        record, reason = self._record(), self.form.reason.text()
        self._write(lambda v: vault_calls.archive_record(v, self.ops.caller, record["id"], reason, record["revision"]))

    def scope_from_form(self) -> None:
        record, scope, workspace = self._record(), self.form.scope.currentData(), self.form.workspace.text().strip()
        self._write(lambda v: vault_calls.change_scope(v, self.ops.caller, record["id"], scope, workspace or None))

    def purge_from_form(self) -> None:
        record, reason = self._record(), self.form.reason.text()
        self._write(lambda v: vault_calls.request_purge(v, self.ops.caller, record["id"], reason))

    def restore(self) -> None:
        record = self._record()
        self._write(lambda v: vault_calls.restore_record(v, self.ops.caller, record["id"]))

    def _write(self, work: Callable[[Vault], Row]) -> None:
        self.form.confirm.setEnabled(False)
        self.say("Working…")
        self.ops.run(work, self._written, self._refused, writes=True)

    def _written(self, result: dict[str, Any]) -> None:
        self.form.confirm.setEnabled(True)
        self.form.hide()
        outcome = str(result.get("outcome", "done"))
        staged = " It waits in the approval inbox." if outcome in ("staged", "confirmation_required") else ""
        said = f"{outcome.replace('_', ' ').capitalize()}.{staged}"
        if is_sensitive(result):  # a correction the writer judged sensitive
            said += f" The new version is {kept_sensitive(str(result.get('access_scope')))}."
        self.say(said)
        if result.get("id"):
            self.record_opened.emit(str(result["id"]))

    def _refused(self, error: MemvaultError) -> None:
        """The writer's refusal (a secret, a passing mood, nothing durable) says why nothing was saved."""
        self.form.confirm.setEnabled(True)
        if error.message.startswith(REFUSED):
            self.say(f"Not saved: {refusal(error.message)}.")
        else:
            self.say(f"Not done: {error.message}")
