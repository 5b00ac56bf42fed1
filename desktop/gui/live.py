"""Live refresh: writes made by other processes (an assistant through `memvault mcp`, the CLI) and
by the daemon serving inside this app reach the open window as `Operations.changed`.

The store's write-ahead log changes whenever anyone commits; a file-system watcher on the store's
folder notices it without polling. After a short quiet moment the store's status (counts by
status, pending proposals, kill switch, write mode) is read again; when it differs, the views are
told. Reads that only bump usage counters change no status, so a search never triggers a refresh.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer

from memvault.core.vault import Vault
from memvault.desktop.gui.operations import Changes, Operations

SETTLE_MS = 150  # one commit touches the log several times: announce once


class LiveFeed(QObject):
    def __init__(self, ops: Operations, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.watcher = QFileSystemWatcher(self)
        self.settle = QTimer(self)
        self.settle.setSingleShot(True)
        self.settle.setInterval(SETTLE_MS)
        self.settle.timeout.connect(self._announce)
        self.watcher.fileChanged.connect(self._touched)
        self.watcher.directoryChanged.connect(self._touched)
        self.seen: Any = None
        self._watch()
        self._look()

    def _paths(self) -> list[str]:
        store = self.ops.vault.paths.store
        wal = store.with_name(store.name + "-wal")
        return [str(store.parent), *(str(p) for p in (store, wal) if p.exists())]

    def _watch(self) -> None:
        missing = [p for p in self._paths() if p not in self.watcher.files() + self.watcher.directories()]
        if missing:
            self.watcher.addPaths(missing)

    def _touched(self, _path: str) -> None:
        self._watch()  # the log may have been created or replaced: keep watching the live file
        self.settle.start()

    def _announce(self) -> None:
        self._look()

    def _look(self) -> None:
        caller = self.ops.caller
        self.ops.run(lambda v: _fingerprint(v, caller), self._compare, lambda _error: None)

    def _compare(self, fingerprint: Any) -> None:
        if self.seen is not None and fingerprint != self.seen:
            self.ops.announce(Changes.of(("memory", "proposal", "setting", "domain")))
        self.seen = fingerprint

    def stop(self) -> None:
        self.settle.stop()
        paths = self.watcher.files() + self.watcher.directories()
        if paths:
            self.watcher.removePaths(paths)


def _fingerprint(vault: Vault, caller: Any) -> Any:
    status = vault.status(caller)
    return (status["counts"], status["pending_proposals"], status["kill_switch"], status["write_mode"])
