"""`memvault app`: the tray daemon with its window.

One app per store: a second launch finds the first over a QLocalServer named after the store and
asks it to bring its window forward. The store is unlocked once (OS keyring, or a passphrase
asked in a dialog); the app then serves `memvault mcp` bridges (desktop/gui/daemon_host.py),
takes the daily backup and owns the kill switch. Without a system tray the window works alone.
Restoring a backup and moving the store (to a shared store and back) replace the store under the
running app the same way (`App.swap_store`): serving stops, the store is closed, changed on the
store's worker and reopened, serving starts again.
"""

from __future__ import annotations

import hashlib
import logging
import os
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from PySide6.QtCore import QObject, QSocketNotifier, QTimer, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit, QMessageBox, QWidget
from shiboken6 import Shiboken

from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import keys
from memvault.core.vault import Vault, store_exists
from memvault.core.vocabulary.errors import EnvironmentProblem, MemvaultError, WrongPassphrase
from memvault.core.vocabulary.model import OWNER
from memvault.desktop.gui.collector import GuiThreadCollector
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.progress import run_long
from memvault.desktop.gui.theme import app_icon, follow_system
from memvault.mcp_bridge.stdio import setup_logging

if TYPE_CHECKING:
    from memvault.core.maintenance.migrate import MigrateReport
    from memvault.desktop.gui.daemon_host import DaemonHost
    from memvault.desktop.gui.live import LiveFeed
    from memvault.desktop.gui.windows.move_store import StoreMove

log = logging.getLogger("memvault.gui")
T = TypeVar("T")
SHOW = b"show\n"
CONNECT_TIMEOUT_MS = 1000
PASSPHRASE_TRIES = 3
QUIT_SIGNALS = (signal.SIGTERM, signal.SIGINT)
SERVE_AFTER_MS = 5000  # serve even when the first rows never come (a failing store)
WINDOW_MODULES = ("memvault.desktop.gui.main_window", "memvault.desktop.gui.tray")  # loaded while the key is derived


def instance_name(home: Path) -> str:
    """The local server's name for this store (per user: Qt puts it in the user's runtime folder)."""
    digest = hashlib.sha256(str(home.resolve()).encode()).hexdigest()[:16]
    return f"memvault-app-{os.getuid() if hasattr(os, 'getuid') else 0}-{digest}"


def wake_running_instance(name: str) -> bool:
    """Ask a running app for this store to show its window; False when none answers."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(CONNECT_TIMEOUT_MS):
        return False
    socket.write(SHOW)
    socket.waitForBytesWritten(CONNECT_TIMEOUT_MS)
    socket.disconnectFromServer()
    if socket.state() != QLocalSocket.LocalSocketState.UnconnectedState:
        socket.waitForDisconnected(CONNECT_TIMEOUT_MS)
    return True


class SingleInstance(QObject):
    """Listens under the store's name; `woken` fires when a second launch asks for the window."""

    woken = Signal()

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        QLocalServer.removeServer(name)  # a stale name left by a crash (no live app answered)
        if not self.server.listen(name):
            log.warning("gui: single-instance server not listening: %s", self.server.errorString())
        self.server.newConnection.connect(self._connection)

    def _connection(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            socket.readyRead.connect(self._read)
            socket.disconnected.connect(socket.deleteLater)

    def _read(self) -> None:
        socket = self.sender()
        if isinstance(socket, QLocalSocket) and bytes(socket.readAll().data()).startswith(SHOW.strip()):
            self.woken.emit()


# -- unlocking -------------------------------------------------------------------------------
def needs_passphrase(paths: VaultPaths) -> bool:
    """A passphrase store, and no MEMVAULT_PASSPHRASE given: the person is asked."""
    return keys.read_key_info(paths.key_file)["backend"] == "passphrase" and not os.environ.get("MEMVAULT_PASSPHRASE")


def ask_passphrase(parent: QWidget | None, title: str, label: str) -> str | None:
    """The passphrase typed in a dialog (hidden as typed); None when the person cancels."""
    phrase, ok = QInputDialog.getText(parent, title, label, QLineEdit.EchoMode.Password)
    return phrase if ok else None


def unlock(paths: VaultPaths, parent: QWidget | None = None) -> Vault | None:
    """Open the existing store, asking for its passphrase when it needs one; None when the person gives up."""
    if not needs_passphrase(paths):
        return Vault.open(paths.home)
    for attempt in range(PASSPHRASE_TRIES):
        label = "Passphrase of your memvault store:" if attempt == 0 else "Wrong passphrase. Try again:"
        phrase = ask_passphrase(parent, "Unlock memvault", label)
        if phrase is None:
            return None
        try:
            return Vault.open(paths.home, passphrase=phrase)
        except WrongPassphrase:
            continue
    return None


def load_window_modules() -> None:
    """Import what the window is made of (its views, models and the tray)."""
    for module in WINDOW_MODULES:
        import_module(module)


def unlock_while_loading(paths: VaultPaths) -> Vault | None:
    """`unlock`; when no dialog is needed, the key is derived on a thread (scrypt for a passphrase store,
    ~0.3 s of CPU that runs without the GIL) while the window's modules load here."""
    if needs_passphrase(paths):
        load_window_modules()
        return unlock(paths)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="memvault-unlock") as pool:
        opening = pool.submit(Vault.open, paths.home)
        load_window_modules()
        return opening.result()


def _check_unlocks(paths: VaultPaths, secret: str | None) -> None:
    """Raises WrongPassphrase unless `secret` (or the environment, or the keyring) unlocks this store."""
    keys.load_key(paths.key_file, passphrase=secret)


# -- the app ---------------------------------------------------------------------------------
class App(QObject):
    """Everything one running app holds: the store, its worker, the daemon, the tray and the window.

    Serving starts once the window has shown its first rows (or after `SERVE_AFTER_MS` at the
    latest): the daemon on a thread of its own (loading the MCP server takes a second of CPU) and
    the live feed. Until then nothing competes with the first paint.
    """

    not_serving = Signal(str)

    def __init__(self, qt: QApplication, vault: Vault) -> None:
        from memvault.desktop.gui.main_window import MainWindow  # noqa: PLC0415 - see unlock_while_loading
        from memvault.desktop.gui.tray import Tray  # noqa: PLC0415

        super().__init__()
        self.qt = qt
        self.collector = GuiThreadCollector(self)  # before any worker thread starts
        self.ops = Operations(vault, OWNER)
        self.host: DaemonHost | None = None  # made when serving begins
        self.tray = Tray(self.ops)
        self.window = MainWindow(self.ops, self.tray)
        self.live: LiveFeed | None = None
        self.starting: threading.Thread | None = None
        self.not_serving.connect(self.window.note)
        self.window.ready.connect(self.begin_serving)
        QTimer.singleShot(SERVE_AFTER_MS, self, self.begin_serving)
        self.tray.quit_requested.connect(self.quit)
        self.window.quit_requested.connect(self.quit)
        self.window.restore_requested.connect(self.restore)
        self.window.move_requested.connect(self.move_store)

    @property
    def serving(self) -> bool:
        """True once the daemon listens for `memvault mcp` bridges."""
        return self.host is not None and self.host.listening

    def begin_serving(self) -> None:
        """Follow the change feed and start the daemon (once)."""
        if self.starting is not None or self.window.quitting:
            return
        from memvault.desktop.gui.daemon_host import DaemonHost  # noqa: PLC0415 - after the first paint
        from memvault.desktop.gui.live import LiveFeed  # noqa: PLC0415

        self.live = LiveFeed(self.ops, self)
        self.host = DaemonHost(self.ops.vault)
        self.starting = threading.Thread(target=self._serve, name="memvault-daemon-start", daemon=True)
        self.starting.start()

    def _serve(self) -> None:
        assert self.host is not None
        why_not = self.host.start()
        self.collector.settle()  # the window and the MCP SDK are loaded: later passes skip them
        if why_not:
            self.not_serving.emit(why_not)

    def quit(self) -> None:
        """Stop every thread (daemon, live feed, graph layout, worker), close the store, end the event loop."""
        if self.window.quitting:
            return
        self.window.quitting = True
        if self.starting is not None:
            self.starting.join()
        if self.live is not None:
            self.live.stop()
        self.tray.hide()
        self.window.close()
        self.window.shutdown()
        if self.host is not None:
            self.host.stop()
        self.ops.shutdown()
        self.ops.vault.close()
        self.collector.stop()  # the worker and the daemon are gone: no other thread can collect now
        self.qt.quit()

    def dispose(self) -> None:
        """After the event loop: delete the window and the tray while the QApplication still exists.

        Left to the interpreter's exit, wrappers go in no set order, and a widget deleted after the
        QApplication (or a signal reaching a half-deleted view) can crash the process at exit.
        """
        Shiboken.delete(self.window)
        self.tray.dispose()

    def restore(self, backup: str) -> None:
        """Replace the store by a verified backup. A passphrase store asks for its passphrase first, and
        it is checked before anything stops: a wrong one changes nothing."""
        paths = self.ops.vault.paths
        secret = None
        if needs_passphrase(paths):
            secret = ask_passphrase(self.window, "Restore a backup", "Passphrase of this store, to restore into it:")
            if secret is None:
                return
        self.ops.run(
            lambda _v: _check_unlocks(paths, secret),
            lambda _: self._restore(backup, secret),
            lambda error: self.window.show_problem(f"The store was not restored: {error.message}"),
        )

    def _restore(self, backup: str, secret: str | None) -> None:
        home = self.ops.vault.paths.home

        def refused(reason: str) -> None:
            self.window.show_problem(f"The store was not restored: {reason}")

        self.swap_store(
            lambda: Vault.restore_backup(backup, home, secret=secret),
            secret,
            self.window.restored,
            refused,
            label="Verifying and restoring the backup…",
        )

    def move_store(self, move: StoreMove) -> None:
        """Move the store to a shared store or back to a file of this home (windows/move_store.py). A
        passphrase store asks for its passphrase first, checked before anything stops."""
        paths = self.ops.vault.paths
        secret = None
        if needs_passphrase(paths):
            secret = ask_passphrase(self.window, "Move the store", "Passphrase of this store, to move it:")
            if secret is None:
                move.refused.emit("The store was not moved: no passphrase was given.")
                return
        self.ops.run(
            lambda _v: _check_unlocks(paths, secret),
            lambda _: self._move(move, secret),
            lambda error: move.refused.emit(f"The store was not moved: {error.message}"),
        )

    def _move(self, move: StoreMove, secret: str | None) -> None:
        home, clock = self.ops.vault.paths.home, self.ops.vault.clock

        from memvault.core.maintenance import migrate  # noqa: PLC0415 - only when a store moves

        def change() -> MigrateReport:
            from memvault.desktop import daemon  # noqa: PLC0415 - loads the daemon's modules

            daemon.refuse_while_running(home, "move the store")  # this app's own has stopped by now
            if move.target is None:
                return migrate.to_local(home, progress=move.progress, passphrase=secret)
            return migrate.to_shared(home, move.target, clock=clock, progress=move.progress, passphrase=secret)

        def refused(reason: str) -> None:
            move.refused.emit(f"The store was not moved: {reason}")

        self.swap_store(change, secret, move.moved.emit, refused, lost=move.refused.emit)

    def swap_store(
        self,
        change: Callable[[], T],
        secret: str | None,
        done: Callable[[T], None],
        refused: Callable[[str], None],
        *,
        label: str | None = None,
        lost: Callable[[str], None] | None = None,
    ) -> None:
        """Stop serving, close the store, `change` it on the worker, reopen it (changed or, refused, as it
        was), serve again; then `done(answer)` or `refused(reason)` on the GUI thread. With `label`, a
        busy dialog shows meanwhile. Should the store not reopen, the window says so (and `lost`)."""
        home = self.ops.vault.paths.home
        self._stop_serving()

        def work(vault: Vault) -> tuple[T | None, str | None]:
            vault.close()
            answer, problem = _attempt(change)
            self.ops.vault = Vault.open(home, passphrase=secret)  # the work queued after this one uses it
            return answer, problem

        def reopened(outcome: tuple[T | None, str | None]) -> None:
            self._serve_again()
            self.ops.announce(Changes.all())
            answer, problem = outcome
            if problem is not None:
                refused(problem)
            else:
                done(cast(T, answer))

        def failed(error: MemvaultError) -> None:
            self.window.show_problem(f"The store could not be reopened: {error.message}")
            if lost is not None:
                lost(f"memvault could not open the store afterwards ({error.message}): quit it and start it again.")

        if label is None:
            self.ops.run(work, reopened, failed)
        else:
            run_long(self.ops, self.window, label, work, reopened, failed)

    def _stop_serving(self) -> None:
        if self.starting is not None:
            self.starting.join()  # the daemon's start finishes before it is stopped
        if self.host is not None:
            self.host.stop()
        if self.live is not None:
            self.live.stop()

    def _serve_again(self) -> None:
        """Serve the store `ops` holds now, as before it was closed."""
        if self.host is not None:  # else serving begins later, as after any launch
            self.host = type(self.host)(self.ops.vault)
            self.host.start()
        if self.live is not None:
            self.live.start()


def _attempt(change: Callable[[], T]) -> tuple[T | None, str | None]:
    """`change()`'s answer, or why it did not happen: a refusal's words (each says what it changed), or,
    for an unexpected error, its type (what it changed, if anything, is then not known here)."""
    try:
        return change(), None
    except MemvaultError as exc:
        return None, exc.message
    except Exception as exc:  # a bug or a driver's error: its type only (a message may quote memory text)
        frames = "".join(traceback.format_tb(exc.__traceback__))
        log.error("gui: unexpected %s while the store was closed\n%s", type(exc).__name__, frames)
        return None, (
            f"it stopped on an unexpected error ({type(exc).__name__}, see the log). The store now in use is "
            "the one the app reopened: `memvault status` names it and `memvault doctor` checks it"
        )


def run(home: str | os.PathLike[str] | None = None, *, minimized: bool = False, verbose: bool = False) -> int:
    """`memvault app`: returns the process exit code."""
    paths = VaultPaths.from_env(home)
    qt = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(qt, QApplication)
    qt.setApplicationName("memvault")
    qt.setDesktopFileName("memvault")
    qt.setWindowIcon(app_icon())
    qt.setQuitOnLastWindowClosed(False)
    name = instance_name(paths.home)
    if wake_running_instance(name):
        print("memvault: the app is already running for this store; its window was brought forward", file=sys.stderr)
        return 0
    follow_system(qt)
    single = SingleInstance(name)
    opening = time.perf_counter()
    try:
        if store_exists(paths.home):  # a store file, or a shared store this home joined
            vault = unlock_while_loading(paths)
        else:
            from memvault.desktop.gui.first_launch import first_run  # noqa: PLC0415 - only the first time

            vault = first_run(paths)
    except EnvironmentProblem as exc:
        QMessageBox.critical(None, "memvault", exc.message)
        return 2
    if vault is None:
        return 1
    setup_logging(vault.paths, "app.log", verbose=verbose)
    log.info("gui: store opened in %.0f ms", (time.perf_counter() - opening) * 1000)
    app = App(qt, vault)
    single.woken.connect(app.window.bring_forward)
    app.window.ready.connect(lambda: log.info("gui: first rows shown (pid %d)", os.getpid()))
    if not minimized or not app.tray.available:
        app.window.show()
    with quit_on_signals(app.quit):
        code = qt.exec()
    app.quit()  # when the loop ended otherwise (e.g. the session closed every window)
    app.dispose()
    single.server.close()
    return code


@contextmanager
def quit_on_signals(quit_app: Callable[[], None]) -> Iterator[None]:
    """SIGTERM (logout, `kill`) and SIGINT (Ctrl+C) quit as the tray's Quit does: store closed, socket gone.

    Python runs signal handlers only between bytecodes, and Qt's loop runs none: the signal's byte on
    a wake-up socket makes Qt call back into Python, which then runs the handler.
    """
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(lambda: reader.recv(64))
    previous = {sig: signal.signal(sig, lambda *_: QTimer.singleShot(0, quit_app)) for sig in QUIT_SIGNALS}
    old_fd = signal.set_wakeup_fd(writer.fileno())
    try:
        yield
    finally:
        signal.set_wakeup_fd(old_fd)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        notifier.setEnabled(False)
        reader.close()
        writer.close()
