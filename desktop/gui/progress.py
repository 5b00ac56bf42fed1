"""Long work (backup, restore, reindex, discovery) with a visible progress dialog.

The store's long operations report no steps, so the dialog shows a busy bar and the elapsed
time. Cancelling is offered only where it is safe: work that changes nothing (a discovery dry
run, a check) is abandoned and its answer dropped; a write is never cut in half, so a backup or a
restore cannot be cancelled once started. The window stays responsive throughout: the work runs on
the `Operations` worker.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QProgressDialog, QWidget

from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import MemvaultError
from memvault.desktop.gui.operations import Changes, Operations

T = TypeVar("T")
SHOW_AFTER_MS = 300  # quick work finishes before any dialog flickers up


class LongTask:
    """One long piece of work and its dialog; `cancelled` drops the answer (safe work only)."""

    def __init__(self, parent: QWidget, label: str, *, cancellable: bool) -> None:
        self.cancelled = False
        self.finished = False
        self.started = time.monotonic()
        self.label = label
        self.dialog = QProgressDialog(label, "Cancel" if cancellable else "", 0, 0, parent)
        self.dialog.setWindowTitle("memvault")
        self.dialog.setWindowModality(Qt.WindowModality.NonModal)
        self.dialog.setMinimumDuration(SHOW_AFTER_MS)
        self.dialog.setAutoClose(False)
        self.dialog.setAutoReset(False)
        if not cancellable:
            self.dialog.setCancelButton(None)  # Qt: no button
        self.dialog.canceled.connect(self._cancel)
        self.timer = QTimer(self.dialog)
        self.timer.setInterval(500)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        self.dialog.setLabelText(f"{self.label} ({time.monotonic() - self.started:.0f} s)")

    def _cancel(self) -> None:
        self.cancelled = True
        self.close()

    def close(self) -> None:
        self.finished = True
        self.timer.stop()
        self.dialog.reset()
        self.dialog.hide()


def run_long(
    ops: Operations,
    parent: QWidget,
    label: str,
    work: Callable[[Vault], T],
    done: Callable[[T], None],
    failed: Callable[[MemvaultError], None] | None = None,
    *,
    cancellable: bool = False,
    writes: bool = False,
    changes: Changes | None = None,
) -> LongTask:
    """Run `work` through `ops` with a progress dialog; a cancelled task's answer is dropped."""
    if cancellable and writes:
        raise ValueError("a write cannot be cancelled safely")
    task = LongTask(parent, label, cancellable=cancellable)

    def finished(result: T) -> None:
        if not task.cancelled:
            task.close()
            done(result)

    def refused(error: MemvaultError) -> None:
        task.close()
        if task.cancelled:
            return
        if failed is not None:
            failed(error)
        else:
            ops.failed_unexpectedly.emit(f"{error.code}: {error.message}")

    ops.run(work, finished, refused, writes=writes, changes=changes)
    return task
