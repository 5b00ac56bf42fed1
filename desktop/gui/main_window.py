"""The main window: a navigation list beside the views (Memories, Timeline, Graph, Inbox, Domains, Settings).

Ctrl+1..7 (or the list, by keyboard) switch views. Closing the window leaves the app in the tray
when a tray exists; without one, closing quits, and the status bar says why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QWidget,
)

from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.theme import app_icon
from memvault.desktop.gui.tray import Tray
from memvault.desktop.gui.windows.benchmark import BenchmarkView
from memvault.desktop.gui.windows.domains import DomainsView
from memvault.desktop.gui.windows.graph import GraphView
from memvault.desktop.gui.windows.import_dialog import ImportDialog
from memvault.desktop.gui.windows.inbox import InboxView
from memvault.desktop.gui.windows.memories import MemoriesView
from memvault.desktop.gui.windows.settings import SettingsView
from memvault.desktop.gui.windows.timeline import TimelineView

NO_TRAY = "No system tray here: memvault runs while this window is open (closing it quits)."
PAGES: tuple[tuple[str, Callable[[Operations], QWidget]], ...] = (
    ("Memories", MemoriesView),
    ("Timeline", TimelineView),
    ("Graph", GraphView),
    ("Inbox", InboxView),
    ("Domains", DomainsView),
    ("Settings", SettingsView),
    ("Benchmark", BenchmarkView),
)


class MainWindow(QMainWindow):
    quit_requested = Signal()
    restore_requested = Signal(str)  # a backup file chosen in Settings; the app carries it out

    def __init__(self, ops: Operations, tray: Tray) -> None:
        super().__init__()
        self.ops = ops
        self.tray = tray
        self.quitting = False
        self.import_dialog: ImportDialog | None = None
        self.setWindowTitle(f"memvault — {ops.vault.paths.home}")
        self.setWindowIcon(app_icon())
        self.nav = QListWidget()
        self.nav.setAccessibleName("Views")
        self.stack = QStackedWidget()
        self.pages: dict[str, QWidget] = {}
        for name, make in PAGES:
            page = make(ops)
            self.pages[name] = page
            self.stack.addWidget(page)
            self.nav.addItem(name)
        self.nav.currentRowChanged.connect(self.stack.setCurrentIndex)
        widest = max(self.fontMetrics().horizontalAdvance(text) for text in ("Inbox (999)", *(n for n, _ in PAGES)))
        self.nav.setFixedWidth(widest + 4 * self.fontMetrics().averageCharWidth())
        body = QWidget()
        row = QHBoxLayout(body)
        row.addWidget(self.nav)
        row.addWidget(self.stack, 1)
        self.setCentralWidget(body)
        self._menus()
        self._connect_views()
        self.state = QLabel()
        self.statusBar().addPermanentWidget(self.state)
        self.notes: list[str] = [] if tray.available else [NO_TRAY]
        self.statusBar().showMessage("  ".join(self.notes))
        self.problem = QMessageBox(QMessageBox.Icon.Warning, "memvault", "", parent=self)
        self.problem.setModal(False)
        ops.failed_unexpectedly.connect(self.show_problem)
        tray.open_requested.connect(self.bring_forward)
        self._tray_state()
        self.show_page("Memories")
        self.resize(self.fontMetrics().averageCharWidth() * 170, self.fontMetrics().height() * 45)

    def _menus(self) -> None:
        vault_menu = self.menuBar().addMenu("&memvault")
        vault_menu.addMenu(self.tray.kill_menu)
        vault_menu.addAction(self.tray.pause_action)
        vault_menu.addSeparator()
        import_action = vault_menu.addAction("&Import history…")
        import_action.setShortcut(QKeySequence("Ctrl+I"))
        import_action.triggered.connect(self.open_import)
        vault_menu.addSeparator()
        quit_action = vault_menu.addAction("&Quit")
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.quit_requested)
        go = self.menuBar().addMenu("&Go")
        for number, (name, _) in enumerate(PAGES, start=1):
            action = QAction(name, self)
            action.setShortcut(QKeySequence(f"Ctrl+{number}"))
            action.triggered.connect(lambda _=False, n=name: self.show_page(n))
            go.addAction(action)
            self.addAction(action)

    def _connect_views(self) -> None:
        memories = self.pages["Memories"]
        for name in ("Timeline", "Graph"):
            opened = getattr(self.pages[name], "record_opened", None)
            if opened is not None and isinstance(memories, MemoriesView):
                opened.connect(memories.open_record)
                opened.connect(lambda _id: self.show_page("Memories"))
        settings = self.pages["Settings"]
        if isinstance(settings, SettingsView):
            settings.restore_requested.connect(self.restore_requested)
        inbox = self.pages["Inbox"]
        if isinstance(inbox, InboxView):
            inbox.pending_changed.connect(self._inbox_count)
        self.tray.icon.messageClicked.connect(self.open_inbox)
        self.tray.state_changed.connect(self._tray_state)

    def show_page(self, name: str) -> None:
        self.nav.setCurrentRow([n for n, _ in PAGES].index(name))

    def current_page(self) -> str:
        return PAGES[self.stack.currentIndex()][0]

    def _inbox_count(self, pending: int) -> None:
        self.nav.item([n for n, _ in PAGES].index("Inbox")).setText(f"Inbox ({pending})" if pending else "Inbox")
        self._tray_state()

    def _tray_state(self) -> None:
        self.state.setText(self.tray.summary() if self.tray.pending >= 0 else "")

    def restored(self, result: dict[str, Any]) -> None:
        settings = self.pages["Settings"]
        if isinstance(settings, SettingsView):
            settings.backups.restored(result)
        self.show_page("Settings")

    def note(self, text: str) -> None:
        """A lasting remark in the status bar (e.g. that another daemon serves the assistants)."""
        self.notes.append(text)
        self.statusBar().showMessage("  ".join(self.notes))

    def open_import(self) -> ImportDialog:
        """The import dialog (one, kept while the window lives: a report stays until discarded)."""
        if self.import_dialog is None:
            self.import_dialog = ImportDialog(self.ops, self)
        self.import_dialog.show()
        self.import_dialog.raise_()
        return self.import_dialog

    def open_inbox(self) -> None:
        self.bring_forward()
        self.show_page("Inbox")

    def bring_forward(self) -> None:
        self.showNormal()
        self.raise_()
        self.activateWindow()

    def show_problem(self, text: str) -> None:
        """One non-blocking box for problems nobody asked about (a later one replaces its text)."""
        self.problem.setText(text)
        self.problem.show()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.tray.available and not self.quitting:
            self.hide()  # the app lives on in the tray
            event.ignore()
            return
        event.accept()
        if not self.quitting:
            self.quit_requested.emit()
