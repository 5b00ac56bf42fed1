"""Hearing other machines' writes: every transaction that records an event on a PostgreSQL store
notifies `memvault_changes` (a trigger of schema 1, delivered at its commit), and `Listening` waits
for those on a connection of its own, calling `wake()` for each. The change signal
(core/runtime/change_signal.py) covers the processes of one machine; this covers every machine."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from memvault.core.store.postgres import credentials
from memvault.core.store.postgres.connection import DatabaseError, open_connection

log = logging.getLogger("memvault.changes")

CHANNEL = "memvault_changes"
STOP_CHECK_SECONDS = 0.5  # how soon `stop` is noticed between notifications


class Listening:
    """LISTENs on the store at `url` until stopped; `wake` runs on its thread and must be quick."""

    def __init__(self, url: str, wake: Callable[[], None]) -> None:
        self._url = url
        self._wake = wake
        self._stop = threading.Event()
        self._listening = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Listening:
        self._thread = threading.Thread(target=self._run, name="memvault-pg-listen", daemon=True)
        self._thread.start()
        self._listening.wait(10)  # LISTEN is in place before the caller reads its cursor
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def _run(self) -> None:
        """Listen; after a lost connection, listen again (waiting longer each time, up to a minute) and
        wake the caller, who reads what came meanwhile."""
        failures = 0
        while not self._stop.is_set():
            if self._listen_once():
                return
            failures += 1
            self._listening.set()  # whoever waits for the first LISTEN waits no longer
            if self._stop.wait(min(60.0, 2.0**failures)):
                return
            self._wake()

    def _listen_once(self) -> bool:
        """True when stopped on request; False when the connection could not be made or was lost."""
        try:
            conn = open_connection(self._url, credentials.password_for(self._url))
        except Exception as exc:  # the type only: a message could name the server
            log.warning("changes from other machines are not heard (%s); trying again", type(exc).__name__)
            return False
        try:
            conn.execute(f"LISTEN {CHANNEL}")
            self._listening.set()
            while not self._stop.is_set():
                for _ in conn.notifies(timeout=STOP_CHECK_SECONDS):
                    self._wake()
            return True
        except DatabaseError as exc:
            log.warning("listening for other machines' changes was cut off (%s); listening again", type(exc).__name__)
            return False
        finally:
            conn.close()
