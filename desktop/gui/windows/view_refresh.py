"""Load a costly view when it is first shown, and after a change only once it is visible again.

The graph lays out up to 2,000 nodes and the timeline reads hundreds of events: neither should
spend the worker's time (or delay the Memories list at start-up) while its page is hidden.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget

from memvault.core.operations.changes import MEMORY_KINDS, ChangeKind
from memvault.desktop.gui.operations import Changes

KINDS = MEMORY_KINDS | {ChangeKind.DOMAIN_CHANGED}  # what the graph and the timeline draw


class ShownRefresher(QObject):
    def __init__(self, view: QWidget, refresh: Callable[[], None]) -> None:
        super().__init__(view)
        self._view = view
        self._refresh = refresh
        self._stale = True
        view.installEventFilter(self)

    def changed(self, changes: Changes) -> None:
        if not changes.touches(*KINDS):
            return
        if self._view.isVisible():
            self._refresh()
        else:
            self._stale = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and self._stale:
            self._stale = False
            self._refresh()
        return False
