"""Live refresh: the change feed as a Qt signal.

Writes made by other processes (an assistant through `memvault mcp`, the CLI) and by the daemon
serving inside this app reach the open window as `Operations.changed`: the same `Changes` the app's
own writes announce, with the kinds (`ChangeKind`) and ids the feed names. The app is the daemon
itself, so it follows the feed by the store's change signal (desktop/change_listener.py, file
mode): every committing process rewrites it, no polling.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from memvault.core.operations.changes import ChangeBatch
from memvault.desktop.change_listener import ChangeListener
from memvault.desktop.gui.operations import Operations, changes_of


class LiveFeed(QObject):
    """Follows the store's change feed and announces each batch through `ops` on the GUI thread."""

    _arrived = Signal(object)  # a ChangeBatch, emitted on the listener's thread, received on the GUI thread

    def __init__(self, ops: Operations, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.listener: ChangeListener | None = None
        self._arrived.connect(self._announce)
        self.start()

    def start(self) -> None:
        """Follow the feed of the store `ops` holds now (again after a restore reopened it)."""
        self.stop()
        self.listener = ChangeListener(self.ops.vault, self._arrived.emit, caller=self.ops.caller, use_daemon=False)
        self.listener.start()

    def stop(self) -> None:
        if self.listener is not None:
            self.listener.stop()
            self.listener = None

    def _announce(self, batch: ChangeBatch) -> None:
        self.ops.announce(changes_of(batch))
