"""`memvault app`: the tray daemon with its window.

One app per store: a second launch finds the first over a QLocalServer named after the store and
asks it to bring its window forward. The store is unlocked once (OS keyring, or a passphrase
asked in a dialog); the app then serves `memvault mcp` bridges (desktop/gui/daemon_host.py),
takes the daily backup and owns the kill switch. Without a system tray the window works alone.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit, QMessageBox, QWidget

from memvault.core import keys
from memvault.core.errors import EnvironmentProblem, MemvaultError, WrongPassphrase
from memvault.core.model import OWNER
from memvault.core.paths import VaultPaths
from memvault.core.vault import Vault
from memvault.desktop import clients
from memvault.desktop.gui.daemon_host import DaemonHost
from memvault.desktop.gui.live import LiveFeed
from memvault.desktop.gui.main_window import MainWindow
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.progress import run_long
from memvault.desktop.gui.theme import app_icon, follow_system
from memvault.desktop.gui.tray import Tray
from memvault.desktop.gui.windows.first_run import FirstRunChoices, FirstRunWizard
from memvault.mcp_bridge.stdio import setup_logging

log = logging.getLogger("memvault.gui")
SHOW = b"show\n"
CONNECT_TIMEOUT_MS = 1000
PASSPHRASE_TRIES = 3


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
@contextmanager
def passphrase_given(phrase: str | None) -> Iterator[None]:
    """Hand a passphrase to core's key loader for one call (it reads MEMVAULT_PASSPHRASE)."""
    if phrase is None:
        yield
        return
    before = os.environ.get("MEMVAULT_PASSPHRASE")
    os.environ["MEMVAULT_PASSPHRASE"] = phrase
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("MEMVAULT_PASSPHRASE", None)
        else:
            os.environ["MEMVAULT_PASSPHRASE"] = before


def _asks_passphrase(paths: VaultPaths) -> bool:
    return keys.read_key_info(paths.key_file)["backend"] == "passphrase" and not os.environ.get("MEMVAULT_PASSPHRASE")


def unlock(paths: VaultPaths, parent: QWidget | None = None) -> Vault | None:
    """Open the existing store, asking for its passphrase when it needs one; None when the person gives up."""
    if not _asks_passphrase(paths):
        return Vault.open(paths.home)
    for attempt in range(PASSPHRASE_TRIES):
        label = "Passphrase of your memvault store:" if attempt == 0 else "Wrong passphrase. Try again:"
        phrase, ok = QInputDialog.getText(parent, "Unlock memvault", label, QLineEdit.EchoMode.Password)
        if not ok:
            return None
        try:
            with passphrase_given(phrase):
                return Vault.open(paths.home)
        except WrongPassphrase:
            continue
    return None


def first_run(paths: VaultPaths) -> Vault | None:
    """The first-run wizard, then its choices carried out; None when cancelled."""
    wizard = FirstRunWizard(needs_passphrase=keys.new_store_needs_passphrase())
    if not wizard.exec():
        return None
    choices = wizard.choices()
    if choices.demo:
        return open_demo()
    with passphrase_given(choices.passphrase):
        vault = Vault.open(paths.home, create=True)
    apply_choices(vault, choices)
    return vault


def apply_choices(vault: Vault, choices: FirstRunChoices) -> list[str]:
    """The write mode, then each assistant registered (the same code as `memvault install`)."""
    vault.set_setting(OWNER, "write_mode", choices.write_mode)
    notes = []
    for client in choices.connect:
        try:
            notes += clients.install(client, home=vault.paths.home).notes
        except MemvaultError as exc:
            notes.append(f"{client}: {exc.message}")
    return notes


def open_demo() -> Vault:
    """The fictional demo store, loaded first if needed (the same code as `memvault demo`)."""
    import subprocess  # noqa: PLC0415 - only on this path

    from memvault.desktop.commands.demo import default_home  # noqa: PLC0415

    home = default_home()
    subprocess.run(
        [sys.executable, "-m", "memvault.desktop.cli", "demo", "--home", str(home)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return Vault.open(home)


# -- the app ---------------------------------------------------------------------------------
class App(QObject):
    """Everything one running app holds: the store, its worker, the daemon, the tray and the window.

    The daemon starts on a thread of its own once the window exists (loading the MCP server takes
    seconds on a busy machine; the window should not wait for it).
    """

    not_serving = Signal(str)

    def __init__(self, qt: QApplication, vault: Vault) -> None:
        super().__init__()
        self.qt = qt
        self.ops = Operations(vault, OWNER)
        self.host = DaemonHost(vault)
        self.tray = Tray(self.ops)
        self.window = MainWindow(self.ops, self.tray)
        self.live = LiveFeed(self.ops, self)
        self.not_serving.connect(self.window.note)
        self.starting = threading.Thread(target=self._serve, name="memvault-daemon-start", daemon=True)
        self.starting.start()
        self.tray.quit_requested.connect(self.quit)
        self.window.quit_requested.connect(self.quit)
        self.window.restore_requested.connect(self.restore)

    def _serve(self) -> None:
        why_not = self.host.start()
        if why_not:
            self.not_serving.emit(why_not)

    def quit(self) -> None:
        self.starting.join()
        self.window.quitting = True
        self.live.stop()
        self.tray.hide()
        self.window.close()
        self.host.stop()
        self.ops.shutdown()
        self.ops.vault.close()
        self.qt.quit()

    def restore(self, backup: str) -> None:
        """Replace the store by a verified backup: stop serving, close, restore, reopen, serve again."""
        home = self.ops.vault.paths.home
        self.host.stop()
        self.live.stop()

        def work(vault: Vault) -> tuple[dict[str, Any] | None, MemvaultError | None, Vault]:
            vault.close()
            try:
                result, problem = Vault.restore_backup(backup, home), None
            except MemvaultError as exc:  # the store is untouched: reopen it as it was
                result, problem = None, exc
            reopened = Vault.open(home)
            self.ops.vault = reopened  # on the worker: the work queued after this one uses the new store
            return result, problem, reopened

        def done(answer: tuple[dict[str, Any] | None, MemvaultError | None, Vault]) -> None:
            result, problem, reopened = answer
            self.host = DaemonHost(reopened)
            self.host.start()
            self.live.start()
            self.ops.announce(Changes.all())
            if problem is not None:
                self.window.show_problem(f"The store was not restored: {problem.message}")
            elif result is not None:
                self.window.restored(result)

        def failed(error: MemvaultError) -> None:
            self.window.show_problem(f"The store could not be reopened: {error.message}")

        run_long(self.ops, self.window, "Verifying and restoring the backup…", work, done, failed)


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
    try:
        vault = unlock(paths) if paths.store.exists() else first_run(paths)
    except EnvironmentProblem as exc:
        QMessageBox.critical(None, "memvault", exc.message)
        return 2
    if vault is None:
        return 1
    setup_logging(vault.paths, "app.log", verbose=verbose)
    app = App(qt, vault)
    single.woken.connect(app.window.bring_forward)
    if not minimized or not app.tray.available:
        app.window.show()
    log.info("gui: window ready (pid %d)", os.getpid())
    return qt.exec()
