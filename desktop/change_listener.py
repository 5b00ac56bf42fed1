"""`ChangeListener`: how a front end (the desktop app, `memvault changes --follow`) hears of changes.

It follows the feed from a cursor and calls `on_changes(batch)` with each non-empty
`ChangeBatch`, in order, on its own thread (a Qt wrapper re-emits it as a queued signal). Two
ways, chosen at start:

- daemon: when this store's daemon runs (and the caller is local), subscribe on its socket
  (`desktop/change_push.py`); the daemon pushes the changes, this process reads no store.
- file: otherwise, watch the change signal (`core/runtime/change_watch.py`) and read
  `Vault.changes_since` from the listener's cursor when woken. A daemon that goes away mid-way
  hands over to this at the cursor reached.

Neither polls: a wake-up comes from the OS. A slow safety re-check (every `RECHECK_SECONDS`)
covers a file-system event the OS dropped.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import threading
from collections.abc import Callable
from typing import Any

from memvault.core.operations.changes import ChangeBatch
from memvault.core.runtime.change_watch import SignalWatcher
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.model import OWNER, Caller
from memvault.desktop.change_push import PUSHED, SUBSCRIBE, encode
from memvault.mcp_bridge import relay

log = logging.getLogger("memvault.changes")

RECHECK_SECONDS = 30.0
START_TIMEOUT = 10.0

OnChanges = Callable[[ChangeBatch], None]


class ChangeListener:
    """Follows the change feed of `vault`'s store; `start()`, then `stop()` (or use it as a context)."""

    def __init__(
        self,
        vault: Vault,
        on_changes: OnChanges,
        *,
        caller: Caller = OWNER,
        cursor: int | None = None,
        use_daemon: bool = True,
    ) -> None:
        self.vault = vault
        self.caller = caller
        self.cursor = cursor  # the last event handed over (None until start() learns the current one)
        self.mode: str | None = None  # "daemon" or "file" once started
        self._on_changes = on_changes
        self._use_daemon = use_daemon and caller.is_local  # the daemon pushes what local callers see
        self._stopping = threading.Event()
        self._wake = threading.Event()
        self._ready = threading.Event()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Begin following; returns once changes committed from now on are sure to be heard."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="memvault-changes", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT):
            log.warning("change listener: not ready after %.0f s", START_TIMEOUT)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop following and wait for the listener's thread; no callback runs after this returns."""
        self._stopping.set()
        self._wake.set()
        sock = self._sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            if thread.is_alive():
                log.warning("change listener: its thread did not stop within %.0f s", timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> ChangeListener:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the listener's thread ------------------------------------------------------------------
    def _run(self) -> None:
        try:
            if self._use_daemon and self._follow_daemon():
                return
            if not self._stopping.is_set():
                self._follow_file()
        except Exception as exc:  # the type only: a message could hold what the store said
            log.error("change listener stopped by %s", type(exc).__name__)
        finally:
            self._ready.set()

    def _deliver(self, batch: ChangeBatch) -> None:
        if self._stopping.is_set():
            return
        self.cursor = batch.cursor
        if batch.changes or batch.reset:
            try:
                self._on_changes(batch)
            except Exception as exc:
                log.error("change listener: the callback raised %s", type(exc).__name__)

    def _follow_daemon(self) -> bool:
        """Follow the daemon's pushes. True: stopped on request; False: no daemon (any more)."""
        sock = relay.connect(relay.DaemonAddress.for_home(self.vault.paths.home))
        if sock is None:
            return False
        self._sock = sock
        try:
            sock.sendall(encode({"jsonrpc": "2.0", "id": 1, "method": SUBSCRIBE, "params": {"cursor": self.cursor}}))
            reader = sock.makefile("rb")
            answer = _message(reader.readline())
            if answer is None or "result" not in answer:
                return False
            self.cursor = int(answer["result"]["cursor"])
            self.mode = "daemon"
            self._ready.set()
            for line in reader:
                message = _message(line)
                if message is not None and message.get("method") == PUSHED:
                    self._deliver(ChangeBatch.from_dict(message["params"]))
        except OSError as exc:
            log.info("change listener: the daemon connection ended (%s)", exc.strerror)
        finally:
            self._sock = None
            sock.close()
        if not self._stopping.is_set():
            log.info("change listener: the daemon went away; following the change signal")
        return self._stopping.is_set()

    def _follow_file(self) -> None:
        with SignalWatcher(self.vault.paths, self._wake.set), self.vault.hearing_other_machines(self._wake.set):
            if self.cursor is None:  # after the watcher started: nothing committed later goes unheard
                self.cursor = self.vault.changes_since(self.caller, None).cursor
            self.mode = "file"
            self._ready.set()
            self._wake.set()  # catch up at once with what came after a cursor given to us
            while not self._stopping.is_set():
                self._wake.wait(RECHECK_SECONDS)
                self._wake.clear()
                if not self._stopping.is_set():
                    self._drain()

    def _drain(self) -> None:
        assert self.cursor is not None
        while not self._stopping.is_set():
            try:
                batch = self.vault.changes_since(self.caller, self.cursor)
            except MemvaultError as exc:  # a busy store, the kill switch: again at the next wake-up
                log.warning("change listener: changes not read (%s)", exc.code)
                return
            self._deliver(batch)
            if not batch.more:
                return


def _message(line: bytes) -> dict[str, Any] | None:
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None
