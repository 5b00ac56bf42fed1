"""The tray app is the daemon: it serves `memvault mcp` bridges from a thread of its own process.

The serving core is desktop/daemon.py's (lock, private socket, sessions, daily backup, domain
upkeep); here it runs on an anyio event loop in a background thread, sharing the app's open
`Vault` (one unlock), and stops cleanly when the app quits.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from contextlib import AbstractContextManager
from typing import Any

from memvault.core.vault import Vault
from memvault.desktop.daemon import Daemon, DaemonAlreadyRunning, DaemonLock, default_server
from memvault.mcp_bridge import relay

log = logging.getLogger("memvault.gui")
STOP_TIMEOUT_S = 20.0
START_TIMEOUT_S = 60.0


class DaemonHost:
    """Start and stop the daemon's serving loop beside the GUI."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self.address = relay.DaemonAddress.for_home(vault.paths.home)
        self.daemon: Daemon | None = None
        self._lock: DaemonLock | None = None
        self._portal_cm: AbstractContextManager[Any] | None = None
        self._portal: Any = None
        self._serving: Future[Any] | None = None
        self.listening = False  # the socket is open for bridges

    @property
    def serving(self) -> bool:
        return self.daemon is not None

    def start(self) -> str | None:
        """Serve; returns None, or why this app does not serve (another daemon holds the store)."""
        from anyio.from_thread import start_blocking_portal  # noqa: PLC0415 - anyio only once serving

        self.address.ensure_folders()
        try:
            self._lock = DaemonLock.acquire(self.address.lock, self.address.socket)
        except DaemonAlreadyRunning as exc:
            return f"{exc.message}; assistants are served by it, not by this window"
        self.daemon = Daemon(self.vault, self.address, default_server(), handle_signals=False)
        self._portal_cm = start_blocking_portal()
        self._portal = self._portal_cm.__enter__()
        listening = threading.Event()
        self._serving = self._portal.start_task_soon(self.daemon.run, listening.set)
        if not listening.wait(START_TIMEOUT_S):
            log.error("gui: the daemon did not start listening within %.0f s", START_TIMEOUT_S)
            return "the MCP socket did not open; assistants fall back to serving from the store themselves"
        self.listening = True
        return None

    def stop(self) -> None:
        """Stop serving: open sessions end between calls, the socket goes, the lock is released."""
        if self.daemon is None:
            return
        try:
            self._portal.call(self.daemon.request_stop)
            assert self._serving is not None
            self._serving.result(timeout=STOP_TIMEOUT_S)
        except Exception as exc:  # the loop died earlier: say so, still release the lock
            log.error("gui: the daemon loop ended badly: %s", type(exc).__name__)
        finally:
            assert self._portal_cm is not None
            self._portal_cm.__exit__(None, None, None)
            assert self._lock is not None
            self._lock.release()
            self.daemon = None
            self.listening = False
