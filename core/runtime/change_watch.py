"""Watching the change signal (`core/runtime/change_signal.py`) with watchdog: inotify on Linux.

Kept apart from the signal's writer so a process that only commits never imports watchdog.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from watchdog.events import (
    FileClosedEvent,
    FileCreatedEvent,
    FileModifiedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from memvault.core.runtime.change_signal import signal_path
from memvault.core.runtime.paths import VaultPaths

log = logging.getLogger("memvault.changes")

# Creation or modification (the first signal creates the file); inotify also reports the end of
# each write, one event per signal.
_POLLED: list[type[FileSystemEvent]] = [FileCreatedEvent, FileModifiedEvent]
_EVENTS: list[type[FileSystemEvent]] = [FileClosedEvent] if sys.platform.startswith("linux") else _POLLED


class _Handler(FileSystemEventHandler):
    def __init__(self, target: str, wake: Callable[[], None]) -> None:
        self.target = target
        self.wake = wake

    def on_any_event(self, event: FileSystemEvent) -> None:
        if os.fsdecode(event.src_path) == self.target:
            self.wake()


def _started(
    observer: BaseObserver, handler: _Handler, folder: Path, events: list[type[FileSystemEvent]]
) -> BaseObserver:
    observer.schedule(handler, os.fspath(folder), recursive=False, event_filter=events)
    observer.daemon = True
    observer.start()
    return observer


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
            handler = _Handler(os.fspath(self.path), self._wake)
            try:
                self._observer = _started(Observer(), handler, self.path.parent, _EVENTS)
            except OSError as exc:  # e.g. the user's inotify watches are used up: look once a second instead
                log.warning("change signal: no file-system events (%s); checking it every second", exc.strerror)
                self._observer = _started(PollingObserver(timeout=1.0), handler, self.path.parent, _POLLED)

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
