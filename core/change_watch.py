"""Watching the change signal (`core/change_signal.py`) with watchdog: inotify on Linux.

Kept apart from the signal's writer so a process that only commits never imports watchdog.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable

from watchdog.events import FileClosedEvent, FileModifiedEvent, FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from memvault.core.change_signal import signal_path
from memvault.core.paths import VaultPaths

# inotify reports the end of each write (one event per signal); other systems only a modification.
_EVENTS: list[type[FileSystemEvent]] = [FileClosedEvent] if sys.platform.startswith("linux") else [FileModifiedEvent]


class _Handler(FileSystemEventHandler):
    def __init__(self, target: str, wake: Callable[[], None]) -> None:
        self.target = target
        self.wake = wake

    def on_any_event(self, event: FileSystemEvent) -> None:
        if os.fsdecode(event.src_path) == self.target:
            self.wake()


class SignalWatcher:
    """Calls `wake()` (on watchdog's thread) whenever a process writes the signal file of `paths`.

    `wake` must be quick and must not raise: set an event, post to a queue.
    """

    def __init__(self, paths: VaultPaths, wake: Callable[[], None]) -> None:
        self.path = signal_path(paths)
        self._wake = wake
        self._observer: BaseObserver | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if self._observer is not None:
                return
            self.path.parent.mkdir(mode=0o700, exist_ok=True)
            observer = Observer()
            handler = _Handler(os.fspath(self.path), self._wake)
            observer.schedule(handler, os.fspath(self.path.parent), recursive=False, event_filter=_EVENTS)
            observer.daemon = True
            observer.start()
            self._observer = observer

    def stop(self) -> None:
        with self._lock:
            observer, self._observer = self._observer, None
        if observer is not None:
            observer.stop()
            observer.join(timeout=5)

    def __enter__(self) -> SignalWatcher:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
