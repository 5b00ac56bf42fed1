"""Moving the store from Settings: "Use a shared store…" on a home with a store file of its own, "Move back
to this machine…" on a home using a shared PostgreSQL store (core/maintenance/migrate.py, as
`memvault migrate` does).

The dialog tests a connection first (the database reached by memvault's rules, and what it holds),
then hands the move to the app (`App.move_store`): it stops serving assistants, closes the store, moves
it on the store's worker thread and reopens it. Each table's rows show in a bar of their own as they
cross; the end shows what was verified and where the old store was kept. The password typed goes to
the OS keyring with the store's address; it is never shown again, logged or written to a file.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from memvault.core.maintenance.migrate import TABLE_NAMES, MigrateReport, SharedTarget, check_shared
from memvault.core.vocabulary.errors import MemvaultError
from memvault.desktop.gui.operations import Operations

EXAMPLE_URL = "postgresql://memvault@db.example.net/memory?sslmode=verify-full"
# What each table holds, in words (a table not named here shows its own name).
TABLE_WORDS = {
    "sources": "Sources of records",
    "import_batches": "Imports",
    "conversations": "Imported conversations",
    "domains": "Domains",
    "projects": "Projects",
    "memories": "Records and their versions",
    "memory_usage": "How often records were used",
    "entities": "People, places and things",
    "memory_entities": "Who and what records name",
    "links": "Links between records",
    "project_states": "Project states",
    "decisions": "Decisions",
    "unresolved_items": "Unresolved items",
    "proposals": "Proposals (the inbox)",
    "events": "History of every change",
    "feedback": "Feedback",
    "retrieval_log": "Search log (ids and scores)",
    "principals": "Assistants and token holders",
    "tokens": "Tokens (kept as hashes)",
    "settings": "Settings",
    "tombstones": "Purge tombstones",
    "memory_vectors": "Search vectors",
    "import_manifests": "Import manifests",
    "import_items": "Imported items",
    "oauth_clients": "Web assistants",
    "oauth_requests": "Connection requests",
    "oauth_connections": "Web assistant connections",
    "oauth_codes": "Pairing codes",
    "oauth_tokens": "Web assistant tokens (hashes)",
}
VISIBLE_TABLE_ROWS = 8  # the table list's height, in rows; it scrolls to the table being copied


def with_password(url: str, password: str) -> str:
    """The connection string with `password` added as libpq reads it (a `password` option, which wins over
    one in the URL). memvault takes it out again before the address is kept, and keeps it in the keyring."""
    if not password:
        return url
    if "://" in url:
        return f"{url}{'&' if '?' in url else '?'}password={quote(password, safe='')}"
    escaped = password.replace("\\", "\\\\").replace("'", "\\'")
    return f"{url} password='{escaped}'"


def probe(url: str, home: Path | None = None) -> SharedTarget | str:
    """What a test of the connection found (for the store of `home`), or why it failed (a refusal
    memvault words itself; for an error of the database, its type only: no message is quoted)."""
    try:
        return check_shared(url, home)
    except MemvaultError:
        raise
    except Exception as exc:
        return (
            f"the database answered but could not be read ({type(exc).__name__}): its owner may need to "
            "give you the right to read and create tables in it"
        )


def table_words(name: str) -> str:
    return TABLE_WORDS.get(name, name.replace("_", " ").capitalize())


def found_text(found: SharedTarget) -> str:
    """What a connection test found, in words."""
    reach = (
        "over TLS, with the server's certificate and name verified"
        if found["verified_tls"]
        else "on this computer, where TLS is not needed"
    )
    version, latest = found["schema_version"], found["latest_schema"]
    if version is None:
        tables = "memvault's tables are not in it yet: moving makes them."
    elif version > latest:
        tables = f"It holds memvault's tables at schema {version}, newer than this memvault understands ({latest})."
    elif version < latest:
        tables = f"It holds memvault's tables at an older schema ({version}); moving brings them to {latest}."
    else:
        tables = "It holds memvault's tables."
    lines = [
        f"The database answered, {reach}.",
        "It runs PostgreSQL 14 or newer with the pgvector extension available. The test changed nothing in it.",
        tables,
    ]
    rows = found["rows"]
    if found["copy_of_this_store"]:
        lines.append(
            "It holds the copy of this computer's store that an earlier move made before it stopped, before "
            "this computer switched to it. Moving checks that copy against your store and, if they still "
            "match, switches to it without copying again."
        )
        return "\n".join(lines)
    if not rows:
        lines.append("It holds no memvault records: your memory can move there.")
        return "\n".join(lines)
    records = rows.get("memories", 0)
    lines.append(
        f"It already holds a memvault store ({records} records, {sum(rows.values())} rows in all). Moving "
        "requires an empty database: nothing is ever copied over records. Ask for a new, empty database "
        "(or, to use that store from this computer as it is, set up memvault in an empty home with "
        "`memvault init --store`)."
    )
    return "\n".join(lines)


def moved_text(report: MigrateReport) -> str:
    """A finished move, as verified: what crossed, where the home's store is now, where the old one is."""
    rows = sum(report["rows"].values())
    lines = [
        f"Moved and verified: {rows} rows in {len(report['rows'])} tables. "
        "The counts and checksums of every table match on both sides."
    ]
    if report["resumed"]:
        lines.append(
            "An earlier move had copied the store there and stopped before this computer switched to it: "
            "that copy matched the store, so nothing was copied again."
        )
    if report["engine"] == "postgresql":
        backups = len(report["backups_moved"])
        lines += [
            f"This computer now uses the shared store at {report['store']}.",
            f"The previous store file is kept, still encrypted, as {report['previous_store_kept_as']}, with "
            f"{backups} backup{'' if backups == 1 else 's'} and a copy of its key file beside it. A purge in "
            "the shared store does not reach them: delete them once you no longer want them.",
        ]
    else:
        lines += [
            f"This computer now uses its own encrypted store file, {report['store']}.",
            f"The shared store at {report['shared_store_left']} was left as it is: your other computers "
            "may still use it.",
        ]
    return "\n\n".join(lines)


class StoreMove(QObject):
    """One move the dialog asks the app for. `progress` is called on the store's worker thread; the
    signals reach the dialog on the GUI thread."""

    progressed = Signal(str, int, int)  # table, rows done, rows in it
    moved = Signal(object)  # the MigrateReport
    refused = Signal(str)  # why the store was not moved (or could not be opened after it), in a sentence

    def __init__(self, target: str | None, parent: QObject) -> None:
        super().__init__(parent)
        self.target = target  # the shared store's connection string (its password in it), or None: back here

    def progress(self, table: str, done: int, total: int) -> None:
        self.progressed.emit(table, done, total)


class TableProgress(QScrollArea):
    """A bar per table, rows copied of rows in it, in the order the move copies them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        body = QWidget()
        grid = QGridLayout(body)
        self.bars: dict[str, QProgressBar] = {}
        self.labels: dict[str, QLabel] = {}
        for row, name in enumerate(TABLE_NAMES):
            label = QLabel(table_words(name))
            bar = QProgressBar()
            bar.setAccessibleName(f"{table_words(name)}: rows copied")
            bar.setFormat("waiting")
            bar.setValue(0)
            grid.addWidget(label, row, 0)
            grid.addWidget(bar, row, 1)
            self.labels[name], self.bars[name] = label, bar
        grid.setColumnStretch(1, 1)
        self.setWidget(body)
        line = max(bar.sizeHint().height(), label.sizeHint().height()) + max(grid.verticalSpacing(), 0)
        self.setMinimumHeight(line * VISIBLE_TABLE_ROWS + 2 * self.frameWidth())

    def reset(self) -> None:
        for bar in self.bars.values():
            bar.setRange(0, 100)
            bar.setValue(0)
            bar.setFormat("waiting")

    def show_rows(self, table: str, done: int, total: int) -> None:
        bar = self.bars.get(table)
        if bar is None:
            return
        if total == 0:
            bar.setRange(0, 1)
            bar.setValue(1)
            bar.setFormat("nothing to copy")
        else:
            bar.setRange(0, total)
            bar.setValue(done)
            bar.setFormat(f"{done} of {total} rows" if done < total else f"{total} rows copied")
        self.ensureWidgetVisible(bar)

    def done_tables(self) -> int:
        return sum(1 for bar in self.bars.values() if bar.maximum() and bar.value() == bar.maximum())


class MoveStoreDialog(QDialog):
    """To a shared store (`shared=False`: the home has a store file) or back to this computer."""

    move_requested = Signal(object)  # a StoreMove, carried out by the app

    def __init__(self, ops: Operations, *, shared: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.to_here = shared
        self.moving = False
        self.tested: str | None = None  # the connection string a test found usable (moving needs one)
        self.under_way: StoreMove | None = None  # the move under way
        self.setWindowTitle("Move my memory back to this computer" if shared else "Use a shared store")
        self.intro = QLabel(self._intro())
        self.intro.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self._fields())
        layout.addLayout(self._buttons())
        layout.addWidget(self.status)
        layout.addSpacing(self.fontMetrics().height() // 2)
        layout.addWidget(self._progress(), 1)
        self.fields.setVisible(not shared)
        self.test_button.setVisible(not shared)
        self.move_button.setEnabled(shared)  # to a shared store: once a test found it usable
        self.resize(self.fontMetrics().averageCharWidth() * 115, self.sizeHint().height())

    def _fields(self) -> QWidget:
        self.url = QLineEdit()
        self.url.setPlaceholderText(EXAMPLE_URL)
        self.url.setAccessibleName("Database address")
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText("kept in this computer's keyring, never shown again")
        self.password.setAccessibleName("Database password")
        for field in (self.url, self.password):
            field.textChanged.connect(self._edited)
        self.fields = QWidget()
        form = QFormLayout(self.fields)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Database address:", self.url)
        form.addRow("Password:", self.password)
        return self.fields

    def _buttons(self) -> QHBoxLayout:
        self.test_button = QPushButton("&Test connection")
        self.test_button.clicked.connect(self.test_connection)
        self.move_button = QPushButton("&Move my memory back here" if self.to_here else "&Move my memory there")
        self.move_button.clicked.connect(self.start_move)
        self.close_button = QPushButton("&Close")
        self.close_button.clicked.connect(self.close)
        row = QHBoxLayout()
        row.addWidget(self.test_button)
        row.addWidget(self.move_button)
        row.addStretch(1)
        row.addWidget(self.close_button)
        return row

    def _progress(self) -> QWidget:
        self.overall = QProgressBar()
        self.overall.setRange(0, len(TABLE_NAMES))
        self.overall.setFormat("%v of %m tables copied")
        self.overall.setAccessibleName("Tables copied")
        self.tables = TableProgress()
        self.progress = QWidget()
        column = QVBoxLayout(self.progress)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.overall)
        column.addWidget(self.tables)
        self.progress.hide()
        return self.progress

    def _intro(self) -> str:
        if self.to_here:
            return (
                "Your memory is in a shared PostgreSQL store. Moving it back copies every record, with its "
                "history, into a new encrypted file on this computer, which memvault then uses. The shared "
                "store is left as it is, for your other computers. Assistants are paused while it moves."
            )
        return (
            "Move your memory into a PostgreSQL database that your other computers can use too. It needs an "
            "empty database with the pgvector extension available; another computer is reached only over TLS "
            "that verifies the server (add sslmode=verify-full to the address). Whoever runs the database can "
            "read what memvault keeps there. Test the connection first; assistants are paused while it moves."
        )

    def target(self) -> str:
        return with_password(self.url.text().strip(), self.password.text())

    def _edited(self) -> None:
        if self.moving or self.to_here:
            return
        self.tested = None
        self.move_button.setEnabled(False)

    def test_connection(self) -> None:
        url = self.target()
        if not self.url.text().strip():
            self.status.setText(f"Type the database's address first, for example {EXAMPLE_URL}")
            return
        self.status.setText("Testing the connection…")
        self.test_button.setEnabled(False)
        self.ops.run(lambda v: probe(url, v.paths.home), lambda found: self._tested(url, found), self._test_failed)

    def _tested(self, url: str, found: SharedTarget | str) -> None:
        self.test_button.setEnabled(True)
        if isinstance(found, str):
            self.status.setText(f"The connection test failed: {found}")
            return
        self.status.setText(found_text(found))
        if (not found["rows"] or found["copy_of_this_store"]) and url == self.target():
            self.tested = url
            self.move_button.setEnabled(True)

    def _test_failed(self, error: MemvaultError) -> None:
        self.test_button.setEnabled(True)
        self.status.setText(f"The connection test failed: {error.message}")

    def start_move(self) -> None:
        if self.to_here:
            target: str | None = None
        elif self.tested is None or self.tested != self.target():
            self.status.setText("Test the connection first.")
            return
        else:
            target = self.tested
        self._busy(True)
        self.tables.reset()
        self.overall.setValue(0)
        self.progress.show()
        self.resize(self.width(), max(self.height(), self.sizeHint().height()))  # room for the bars
        self.status.setText("Assistants are paused. Copying every table, then reading each one back to verify it…")
        move = StoreMove(target, self)
        move.progressed.connect(self._progressed)
        move.moved.connect(self._moved)
        move.refused.connect(self._refused)
        self.under_way = move
        self.move_requested.emit(move)

    def _busy(self, busy: bool) -> None:
        self.moving = busy
        if not busy and self.under_way is not None:  # its work has ended: the address with its password goes
            self.under_way.deleteLater()
            self.under_way = None
        for widget in (self.fields, self.test_button, self.move_button, self.close_button):
            widget.setEnabled(not busy)

    def _progressed(self, table: str, done: int, total: int) -> None:
        self.tables.show_rows(table, done, total)
        self.overall.setValue(self.tables.done_tables())

    def _moved(self, report: MigrateReport) -> None:
        self._busy(False)
        self.password.clear()
        self.tested = None
        self.overall.setValue(len(TABLE_NAMES))
        self.tables.verticalScrollBar().setValue(0)  # from the first table again: every bar is full
        self.move_button.setEnabled(False)
        self.fields.setEnabled(False)
        self.test_button.setEnabled(False)
        self.status.setText(moved_text(report))

    def _refused(self, reason: str) -> None:
        self._busy(False)
        self.move_button.setEnabled(self.to_here or self.tested is not None)
        self.status.setText(reason)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.moving:  # the move runs to its end (a half-made copy is never left): the dialog stays
            event.ignore()
            return
        super().closeEvent(event)

    def reject(self) -> None:
        if not self.moving:  # Escape closes it, except while the store moves
            super().reject()
