"""Import history: choose an export, set limits, read the dry run's report, then commit or discard;
past import batches with Roll back.

Everything goes through `Vault.imports` on the `Operations` worker (the CLI's own calls): the
format is told apart by `inspect` when a file is chosen; the dry run and the commit report
progress (a bar, counts and an ETA) and stop when asked — a dry run writes nothing, a commit stops
after a whole chunk and Commit again resumes it. The report is shown as HTML (import_report.py).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from PySide6.QtCore import QDate, QObject, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from memvault.core.importers.conversation import FORMATS
from memvault.core.importers.report import ExportSummary, ImportReport, RollbackReport
from memvault.core.importers.request import ImportRequest
from memvault.core.importers.run import Hooks, Stopped
from memvault.core.vocabulary.errors import MemvaultError
from memvault.desktop.gui.date_edits import DateEdit
from memvault.desktop.gui.item_tables import ItemTable
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.windows.import_report import format_name, report_html, summary_text

EXPORTS = "Exports (*.zip *.json *.jsonl *.md *.markdown);;All files (*)"
BATCH_COLUMNS = ("Batch", "Status", "Format", "Chunks", "Added", "Corrected", "Started", "File")
PROGRESS_EVERY = 0.1  # seconds between progress updates sent to the window
MB = 1 << 20
# A folder is an unzipped ChatGPT or Claude export, or Codex sessions (~/.codex): core/importers/layout.py.
FOLDER_TITLE = "Choose an export folder"
FOLDER_TIP = "An unzipped ChatGPT or Claude data export, or Codex sessions (~/.codex or ~/.codex/sessions)"
DEFAULTS = ImportRequest(path="")  # the CLI's defaults (largest file, chunk size)


class _Relay(QObject):
    """Progress from the worker thread, delivered on the GUI thread (queued signal), and the stop flag."""

    moved = Signal(int, int, object)  # done, total, counts

    def __init__(self) -> None:
        super().__init__()
        self.stop = threading.Event()
        self.last = 0.0

    def hooks(self) -> Hooks:
        self.stop.clear()
        self.last = 0.0
        return Hooks(progress=self.progress, stop=self.stop.is_set)

    def progress(self, done: int, total: int, counts: dict[str, int]) -> None:
        now = time.monotonic()
        if done == total or now - self.last >= PROGRESS_EVERY:
            self.last = now
            self.moved.emit(done, total, dict(counts))


def eta_text(elapsed: float, done: int, total: int) -> str:
    if not done or done >= total:
        return ""
    left = int(elapsed / done * (total - done))
    return f"ETA {left // 60}:{left % 60:02d}"


def _batch_cells(row: dict[str, Any]) -> list[str]:
    counts = row.get("counts") or {}
    status = row["status"] if row["finished_at"] or row["status"] != "committed" else "unfinished"
    return [
        row["batch_id"], status.replace("_", " "), format_name(row["format"]),
        f"{row['chunks_done']}/{row['chunks_total']}", str(counts.get("added", 0)),
        str(counts.get("corrected", 0)), str(row["started_at"])[:16].replace("T", " "), row["path"],
    ]  # fmt: skip


class ImportDialog(QDialog):
    """Choose, limit, dry-run, review, commit or discard; list batches and roll one back."""

    imported = Signal(str)  # a batch id, after a commit that finished

    def __init__(self, ops: Operations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.relay = _Relay()
        self.relay.moved.connect(self._moved)
        self.summary: ExportSummary | None = None
        self.report: ImportReport | None = None
        self.running: str | None = None  # "dry run" | "commit" while one runs
        self.started = 0.0
        self.batches: list[dict[str, Any]] = []
        self.rollback_armed: str | None = None
        self.setWindowTitle("Import history — memvault")
        self._build()
        self._update_buttons()
        self.reload_batches()

    # -- layout --------------------------------------------------------------------------------
    def _build(self) -> None:
        self.path = QLineEdit()
        self.path.setPlaceholderText(
            "A ChatGPT or Claude export (zip, unzipped folder or conversations.json), Codex sessions, …"
        )
        self.path.setAccessibleName("Export file")
        self.path.editingFinished.connect(self._path_edited)
        self.file_button = QPushButton("Choose &file…")
        self.file_button.clicked.connect(self._pick_file)
        self.folder_button = QPushButton("Choose f&older…")
        self.folder_button.setToolTip(FOLDER_TIP)
        self.folder_button.setAccessibleName("Choose an export folder")
        self.folder_button.clicked.connect(self._pick_folder)
        self.format = QComboBox()
        self.format.setAccessibleName("Format")
        self.format.addItem("Detect the format", "auto")
        for fmt in FORMATS:
            self.format.addItem(format_name(fmt), fmt)
        self.format.currentIndexChanged.connect(lambda _i: self.choose(self.path.text()))
        self.detected = QLabel("Choose an export to import.")
        self.detected.setWordWrap(True)
        self.detected.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.dry_button = QPushButton("&Dry run")
        self.dry_button.clicked.connect(self.dry_run)
        self.commit_button = QPushButton("&Commit")
        self.commit_button.clicked.connect(self.commit)
        self.discard_button = QPushButton("D&iscard")
        self.discard_button.clicked.connect(self.discard)
        self.stop_button = QPushButton("&Stop")
        self.stop_button.clicked.connect(self.stop)
        self.bar = QProgressBar()
        self.bar.setAccessibleName("Import progress")
        self.progress_text = QLabel()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.view = QTextBrowser()
        self.view.setAccessibleName("Review report")
        self.view.setPlaceholderText("The dry run's review report appears here: nothing is written until you commit.")
        self._build_batches()
        self._layout()

    def _limits(self) -> QGroupBox:
        self.since_on, self.since = QCheckBox("Since"), DateEdit(QDate.currentDate().addYears(-1))
        self.until_on, self.until = QCheckBox("Until"), DateEdit(QDate.currentDate())
        for edit, name in ((self.since, "Since date"), (self.until, "Until date")):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd")
            edit.setAccessibleName(name)
        self.newest = QSpinBox()
        self.newest.setRange(0, 10_000_000)
        self.newest.setSpecialValueText("all")
        self.newest.setAccessibleName("Most recent conversations")
        self.max_mb = QSpinBox()
        self.max_mb.setRange(1, 1 << 20)
        self.max_mb.setValue(DEFAULTS.max_bytes // MB)
        self.max_mb.setSuffix(" MB")
        self.max_mb.setAccessibleName("Largest file to read")
        self.chunk = QSpinBox()
        self.chunk.setRange(1, 1000)
        self.chunk.setValue(DEFAULTS.chunk_size)
        self.chunk.setAccessibleName("Conversations per chunk")
        self.weak = QCheckBox("Include weak candidates (hedged, conditional, long)")
        box = QGroupBox("Limits")
        form = QFormLayout(box)
        dates = QHBoxLayout()
        for widget in (self.since_on, self.since, self.until_on, self.until):
            dates.addWidget(widget)
        dates.addStretch(1)
        form.addRow("Started", dates)
        form.addRow("Most recent conversations", self.newest)
        form.addRow("Largest file", self.max_mb)
        form.addRow("Conversations per chunk", self.chunk)
        form.addRow("", self.weak)
        return box

    def _build_batches(self) -> None:
        self.table = ItemTable(BATCH_COLUMNS, "Import batches")
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._batch_selected())
        self.rollback_button = QPushButton("&Roll back…")
        self.rollback_button.clicked.connect(self.roll_back)
        self.batch_message = QLabel()
        self.batch_message.setWordWrap(True)

    def _layout(self) -> None:
        source = QHBoxLayout()
        source.addWidget(QLabel("Export:"))
        source.addWidget(self.path, 1)
        source.addWidget(self.file_button)
        source.addWidget(self.folder_button)
        source.addWidget(self.format)
        actions = QHBoxLayout()
        for button in (self.dry_button, self.commit_button, self.discard_button, self.stop_button):
            actions.addWidget(button)
        actions.addWidget(self.bar, 1)
        actions.addWidget(self.progress_text)
        top = QWidget()
        column = QVBoxLayout(top)
        column.addLayout(source)
        column.addWidget(self.detected)
        column.addWidget(self._limits())
        column.addLayout(actions)
        column.addWidget(self.message)
        column.addWidget(self.view, 1)
        bottom = QWidget()
        lower = QVBoxLayout(bottom)
        row = QHBoxLayout()
        row.addWidget(QLabel("<b>Import batches</b>"))
        row.addStretch(1)
        row.addWidget(self.rollback_button)
        lower.addLayout(row)
        lower.addWidget(self.table, 1)
        lower.addWidget(self.batch_message)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(bottom)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        outer = QVBoxLayout(self)
        outer.addWidget(split)
        metrics = self.fontMetrics()
        self.resize(metrics.averageCharWidth() * 150, metrics.height() * 48)

    # -- choosing a file -----------------------------------------------------------------------
    def _pick_file(self) -> None:
        chosen, _ = QFileDialog.getOpenFileName(self, "Choose an export", self.path.text(), EXPORTS)
        if chosen:
            self.choose(chosen)

    def _pick_folder(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, FOLDER_TITLE, self.path.text())
        if chosen:
            self.choose(chosen)

    def _path_edited(self) -> None:
        if self.summary is None or self.path.text().strip() != self.summary["path"]:
            self.choose(self.path.text())

    def choose(self, path: str) -> None:
        """Read what the file is (on the worker) and show it; a report of another file is dropped."""
        path = path.strip()
        if self.path.text() != path:
            self.path.setText(path)
        self.summary = None
        self._drop_report()
        if not path:
            self.detected.setText("Choose an export to import.")
            self._update_buttons()
            return
        self.detected.setText("Reading the file…")
        fmt, caller, limit = self.format.currentData(), self.ops.caller, self.max_mb.value() * MB
        self.ops.run(
            lambda v: v.imports.inspect(caller, path, fmt, limit),
            lambda found: self._inspected(path, found),
            lambda error: self._not_an_export(path, error),
        )
        self._update_buttons()

    def _inspected(self, path: str, found: ExportSummary) -> None:
        if path != self.path.text().strip():
            return  # another file was chosen meanwhile
        self.summary = found
        self.detected.setText(summary_text(found))
        self._update_buttons()

    def _not_an_export(self, path: str, error: MemvaultError) -> None:
        if path != self.path.text().strip():
            return
        self.detected.setText(f"Cannot import: {error.message}")
        self._update_buttons()

    # -- dry run, commit, discard, stop ------------------------------------------------------------
    def request(self, *, commit: bool) -> ImportRequest:
        """The request the widgets describe, validated by the core (a bad one raises InvalidArgument)."""
        day = "yyyy-MM-dd"
        return ImportRequest.parse(
            {
                "path": self.path.text().strip(),
                "format": self.format.currentData(),
                "commit": commit,
                "since": self.since.date().toString(day) if self.since_on.isChecked() else None,
                "until": self.until.date().toString(day) if self.until_on.isChecked() else None,
                "max_conversations": self.newest.value() or None,
                "max_bytes": self.max_mb.value() * MB,
                "include_weak": self.weak.isChecked(),
                "chunk_size": self.chunk.value(),
            }
        )

    def dry_run(self) -> None:
        self._start("dry run")

    def commit(self) -> None:
        self._start("commit")

    def _start(self, what: str) -> None:
        try:
            request = self.request(commit=what == "commit")
        except MemvaultError as error:
            self.message.setText(error.message)
            return
        self.running, self.started = what, time.monotonic()
        self.bar.setRange(0, 0)  # busy until the first progress arrives
        self.progress_text.setText("")
        self.message.setText("Dry run: reading and judging, nothing is written…" if what == "dry run" else "Importing…")
        hooks, caller = self.relay.hooks(), self.ops.caller
        self.ops.run(
            lambda v: v.imports.run(caller, request, hooks),
            self._finished,
            self._failed,
            writes=what == "commit",
        )
        self._update_buttons()

    def stop(self) -> None:
        if self.running:
            self.relay.stop.set()
            self.message.setText(
                "Stopping: nothing is written by a dry run."
                if self.running == "dry run"
                else "Stopping after the chunk being written…"
            )

    def discard(self) -> None:
        self._drop_report()
        self.message.setText("Report discarded: nothing was written.")
        self._update_buttons()

    def _drop_report(self) -> None:
        self.report = None
        self.view.clear()

    def _moved(self, done: int, total: int, counts: dict[str, int]) -> None:
        if not self.running:
            return
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)
        verb = "would be added" if self.running == "dry run" else "added"
        eta = eta_text(time.monotonic() - self.started, done, total)
        self.progress_text.setText(
            f"{done:,} / {total:,} conversations · {counts.get('added', 0):,} {verb}" + (f" · {eta}" if eta else "")
        )

    def _finished(self, report: ImportReport) -> None:
        was, self.running = self.running, None
        self.bar.setRange(0, 1)
        self.bar.setValue(1)
        self.report = report if report["dry_run"] else None
        self.view.setHtml(report_html(report))
        chunks = report["chunks"]
        if was == "dry run":
            self.message.setText("Read the report, then Commit to import it or Discard it.")
        elif chunks.get("done", 0) < chunks.get("total", 0):
            self.message.setText(
                f"Stopped after chunk {chunks['done']} of {chunks['total']}: every chunk written is whole. "
                "Commit again to resume."
            )
        else:
            self.message.setText(f"Imported as batch {report['batch_id']}. Roll it back below if you change your mind.")
            self.imported.emit(str(report["batch_id"]))
        self.reload_batches()
        self._update_buttons()

    def _failed(self, error: MemvaultError) -> None:
        was, self.running = self.running, None
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        self.progress_text.setText("")
        if isinstance(error, Stopped):
            self.message.setText("Dry run stopped: nothing was written.")
        elif was == "dry run":
            self.message.setText(f"The dry run could not finish: {error.message}")
        else:
            self.message.setText(f"The import stopped: {error.message} Chunks already written are whole.")
        self.reload_batches()
        self._update_buttons()

    def _update_buttons(self) -> None:
        idle = self.running is None
        ready = idle and self.summary is not None
        self.dry_button.setEnabled(ready)
        unfinished = self.summary is not None and any(
            b["path"] == self.summary["path"] and b["status"] == "committed" and not b["finished_at"]
            for b in self.batches
        )
        self.commit_button.setEnabled(ready and (self.report is not None or unfinished))
        self.commit_button.setText("&Resume commit" if idle and unfinished and self.report is None else "&Commit")
        self.discard_button.setEnabled(idle and self.report is not None)
        self.stop_button.setEnabled(not idle)
        for widget in (self.path, self.file_button, self.folder_button, self.format):
            widget.setEnabled(idle)
        self.rollback_button.setEnabled(idle and self._selected_batch() is not None)

    # -- batches and roll back -------------------------------------------------------------------
    def reload_batches(self) -> None:
        caller = self.ops.caller
        self.ops.run(lambda v: v.imports.batches(caller), self._show_batches, self._batches_failed)

    def _show_batches(self, rows: list[dict[str, Any]]) -> None:
        chosen = self._selected_batch()
        self.batches = rows
        self.table.blockSignals(True)
        try:
            self.table.refill([_batch_cells(row) for row in rows])
            for number, row in enumerate(rows):
                if row["batch_id"] == chosen:
                    self.table.selectRow(number)
        finally:
            self.table.blockSignals(False)
        if not rows:
            self.batch_message.setText("No imports yet: a committed import is listed here and can be rolled back.")
        self._batch_selected()

    def _batches_failed(self, error: MemvaultError) -> None:
        self.batch_message.setText(f"Could not list the import batches: {error.message}")

    def _selected_batch(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or rows[0].row() >= len(self.batches):
            return None
        batch = self.batches[rows[0].row()]
        return None if batch["status"] == "rolled_back" else str(batch["batch_id"])

    def _batch_selected(self) -> None:
        self.rollback_armed = None
        self.rollback_button.setText("&Roll back…")
        self._update_buttons()

    def roll_back(self) -> None:
        """First click asks, the second (on the same batch) rolls it back."""
        batch = self._selected_batch()
        if batch is None:
            return
        if self.rollback_armed != batch:
            self.rollback_armed = batch
            self.rollback_button.setText("Confirm &roll back")
            self.batch_message.setText(
                f"Roll back {batch}? Records it added are removed for good, records it corrected or "
                "confirmed get their earlier state back. Click Confirm roll back to go ahead."
            )
            return
        self.rollback_armed = None
        self.rollback_button.setEnabled(False)
        caller = self.ops.caller
        self.ops.run(
            lambda v: v.imports.rollback(caller, batch),
            self._rolled_back,
            self._batches_failed,
            writes=True,
        )

    def _rolled_back(self, done: RollbackReport) -> None:
        self.batch_message.setText(
            f"Rolled back {done['batch_id']}: {done['removed']} records removed, {done['restored']} restored, "
            f"{done['conversations']} conversations removed."
        )
        self.reload_batches()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.stop()  # a commit ends after its chunk and resumes next time; a dry run is dropped
        super().closeEvent(event)
