"""The main window: a navigation list beside the views (Memories, Timeline, Graph, Inbox, Domains, Settings).

Ctrl+1..7 (or the list, by keyboard) switch views; Ctrl+F goes to the search box. The list shows the
number of records, pending proposals and domains, read again after every change (with the tray's
state). Closing the window leaves the app in the tray when a tray exists; without one, closing quits,
and the status bar says why. A view is built the first time it is shown: the window's first paint
waits only for Memories.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QWidget,
)

from memvault.core.vocabulary.results import RestoreReport
from memvault.desktop.gui.navigation import Navigation
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.theme import app_icon
from memvault.desktop.gui.tray import Tray
from memvault.desktop.gui.windows.memories import MemoriesView

if TYPE_CHECKING:
    from memvault.desktop.gui.windows.import_dialog import ImportDialog
    from memvault.desktop.gui.windows.settings import SettingsView

NO_TRAY = "No system tray here: memvault runs while this window is open (closing it quits)."
# Each view by name and where it lives ("module:Class"): a view's module loads when it is first shown.
PAGES: tuple[tuple[str, str], ...] = (
    ("Memories", "memories:MemoriesView"),
    ("Timeline", "timeline:TimelineView"),
    ("Graph", "graph:GraphView"),
    ("Inbox", "inbox:InboxView"),
    ("Domains", "domains:DomainsView"),
    ("Settings", "settings:SettingsView"),
    ("Benchmark", "benchmark:BenchmarkView"),
)


def make_view(where: str, ops: Operations) -> QWidget:
    module, name = where.split(":")
    view = getattr(import_module(f"memvault.desktop.gui.windows.{module}"), name)(ops)
    assert isinstance(view, QWidget)
    return view


class MainWindow(QMainWindow):
    quit_requested = Signal()
    restore_requested = Signal(str)  # a backup file chosen in Settings; the app carries it out
    move_requested = Signal(object)  # a StoreMove asked for in Settings; the app carries it out
    ready = Signal()  # once: Memories has shown its first answer (the app starts serving after it)

    def __init__(self, ops: Operations, tray: Tray) -> None:
        super().__init__()
        self.ops = ops
        self.tray = tray
        self.quitting = False
        self.first_rows_shown = False
        self.import_dialog: ImportDialog | None = None
        self.setWindowTitle(f"memvault — {ops.vault.paths.home}")
        self.setWindowIcon(app_icon())
        self.nav = Navigation([name for name, _ in PAGES])
        self.stack = QStackedWidget()
        self.pages: dict[str, QWidget] = {}  # the views built so far, by name
        for _ in PAGES:
            self.stack.addWidget(QWidget())  # a stand-in until the view is first shown
        self.nav.currentRowChanged.connect(self._show_row)
        body = QWidget()
        row = QHBoxLayout(body)
        row.addWidget(self.nav)
        row.addWidget(self.stack, 1)
        self.setCentralWidget(body)
        self._menus()
        self.tray.icon.messageClicked.connect(self._notice_clicked)
        self.tray.state_changed.connect(self._tray_state)
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
        if self.tray.store_kill_menu is not None:
            vault_menu.addMenu(self.tray.store_kill_menu)
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
        find = QAction("&Find in memories", self)
        find.setShortcut(QKeySequence.StandardKey.Find)
        find.triggered.connect(self.focus_search)
        go.addAction(find)
        self.addAction(find)
        go.addSeparator()
        for number, (name, _) in enumerate(PAGES, start=1):
            action = QAction(name, self)
            action.setShortcut(QKeySequence(f"Ctrl+{number}"))
            action.triggered.connect(lambda _=False, n=name: self.show_page(n))
            go.addAction(action)
            self.addAction(action)

    def page(self, name: str) -> QWidget:
        """The view called `name`, built (and put in its place in the stack) if this is its first use."""
        if name not in self.pages:
            index = [n for n, _ in PAGES].index(name)
            built = make_view(PAGES[index][1], self.ops)
            stand_in = self.stack.widget(index)
            assert stand_in is not None
            self.stack.insertWidget(index, built)
            self.stack.removeWidget(stand_in)
            stand_in.deleteLater()
            self.pages[name] = built
            self._connect_view(name, built)
        return self.pages[name]

    def _connect_view(self, name: str, view: QWidget) -> None:
        opened = getattr(view, "record_opened", None)
        if opened is not None:  # Timeline and Graph open a record in Memories
            opened.connect(self.open_record)
        if isinstance(view, MemoriesView):
            view.answered.connect(self._first_rows)
            view.import_requested.connect(self.open_import)
            view.assistants_requested.connect(self.open_assistants)
        if name == "Settings":
            view.restore_requested.connect(self.restore_requested)  # type: ignore[attr-defined]
            view.move_requested.connect(self.move_requested)  # type: ignore[attr-defined]

    def _show_row(self, row: int) -> None:
        self.page(PAGES[row][0])
        self.stack.setCurrentIndex(row)

    def show_page(self, name: str) -> None:
        self.nav.setCurrentRow([n for n, _ in PAGES].index(name))

    def current_page(self) -> str:
        return PAGES[self.stack.currentIndex()][0]

    def focus_search(self) -> None:
        memories = self.page("Memories")
        assert isinstance(memories, MemoriesView)
        self.show_page("Memories")
        memories.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        memories.search.selectAll()

    def open_assistants(self) -> None:
        """Settings, scrolled to where assistants are connected."""
        settings = cast("SettingsView", self.page("Settings"))
        self.show_page("Settings")
        settings.ensureWidgetVisible(settings.clients)
        settings.clients.setFocus(Qt.FocusReason.OtherFocusReason)

    def open_record(self, memory_id: str) -> None:
        memories = self.page("Memories")
        assert isinstance(memories, MemoriesView)
        memories.open_record(memory_id)
        self.show_page("Memories")

    def _first_rows(self) -> None:
        if not self.first_rows_shown:
            self.first_rows_shown = True
            self.ready.emit()

    def _tray_state(self) -> None:
        """The counts beside the views and the status line, from the state the tray read last."""
        tray = self.tray
        known = tray.pending >= 0
        self.nav.set_count("Memories", tray.records if known else None, "records")
        self.nav.set_count("Inbox", tray.pending if known and tray.pending > 0 else None, "waiting", attention=True)
        self.nav.set_count("Domains", tray.domains if known else None, "domains")
        self.nav.viewport().update()
        self.state.setText(tray.summary() if known else "")

    def restored(self, result: RestoreReport) -> None:
        settings = cast("SettingsView", self.page("Settings"))
        settings.backups.restored(result)
        self.show_page("Settings")

    def note(self, text: str) -> None:
        """A lasting remark in the status bar (e.g. that another daemon serves the assistants)."""
        self.notes.append(text)
        self.statusBar().showMessage("  ".join(self.notes))

    def open_import(self) -> ImportDialog:
        """The import dialog (one, kept while the window lives: a report stays until discarded)."""
        if self.import_dialog is None:
            from memvault.desktop.gui.windows.import_dialog import ImportDialog  # noqa: PLC0415 - loads when asked

            self.import_dialog = ImportDialog(self.ops, self)
        self.import_dialog.show()
        self.import_dialog.raise_()
        return self.import_dialog

    def open_inbox(self) -> None:
        self.bring_forward()
        self.show_page("Inbox")

    def open_connections(self) -> None:
        """Settings, at the web assistants' connections and their waiting requests."""
        self.bring_forward()
        settings = cast("SettingsView", self.page("Settings"))
        self.show_page("Settings")
        settings.show_connections()

    def _notice_clicked(self) -> None:
        """A click on the tray's last notice opens what it was about."""
        if self.tray.last_notice == "connections":
            self.open_connections()
        else:
            self.open_inbox()

    def bring_forward(self) -> None:
        self.showNormal()
        self.raise_()
        self.activateWindow()

    def show_problem(self, text: str) -> None:
        """One non-blocking box for problems nobody asked about (a later one replaces its text)."""
        self.problem.setText(text)
        self.problem.show()

    def shutdown(self) -> None:
        """Stop the views' own threads (the graph's layout) before the app tears the window down."""
        for view in self.pages.values():
            stop = getattr(view, "shutdown", None)
            if stop is not None:
                stop()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.tray.available and not self.quitting:
            self.hide()  # the app lives on in the tray
            event.ignore()
            return
        event.accept()
        if not self.quitting:
            self.quit_requested.emit()
