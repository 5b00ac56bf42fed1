"""The Memories view: search as you type, filters, a sortable table and the record's detail pane.

Words search with the same retrieval as memory_search; no words list records. At most one
search runs at a time: keystrokes while it runs only mark the view dirty, and an answer to a
query that is no longer the one on screen is dropped and the current one asked instead.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QDateTime, QItemSelection, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from memvault.core.operations.changes import MEMORY_KINDS, ChangeKind
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.model import MemoryType, Scope, Status
from memvault.desktop.gui.badges import BadgeDelegate
from memvault.desktop.gui.date_edits import DateEdit, DateTimeEdit
from memvault.desktop.gui.models import vault_calls
from memvault.desktop.gui.models.record_table import (
    STATEMENT,
    RecordFilterModel,
    RecordTableModel,
    RowFilter,
    plain_words,
)
from memvault.desktop.gui.models.vault_calls import RecordDetail, RecordPage, RecordQuery
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.windows.memory_detail import MemoryDetail
from memvault.desktop.gui.windows.record_columns import RecordColumns

DEBOUNCE_MS = 30  # a little: most keystrokes of a fast typist fall inside one search anyway
ANY = "any"
TIERS = ("hot", "warm", "cold")
NO_MEMORIES = "No memories yet. What your assistants save, or you add with `memvault add`, appears here."
EMPTY_TITLE = "No memories yet"
EMPTY_TEXT = (
    "memvault keeps what your AI assistants should remember about you. Memories arrive three ways:<ul>"
    "<li><b>From an assistant</b> as you talk: connect Claude or Codex in Settings, then tell it what to keep.</li>"
    "<li><b>From your chat history</b>: import an export from ChatGPT, Claude or Markdown notes "
    "(<i>Import history…</i>, Ctrl+I). A dry run shows what would be kept before anything is written.</li>"
    '<li><b>By hand</b>, in a terminal: <code>memvault add "I prefer tea in the morning"</code></li></ul>'
    "Nothing leaves this computer: the store is encrypted on disk."
)


def _combo(name: str, values: list[str], shown: Callable[[str], str] = str) -> QComboBox:
    combo = QComboBox()
    combo.setAccessibleName(name)
    combo.addItem(ANY, None)
    for value in values:
        combo.addItem(shown(value), value)
    return combo


class _Moment(QWidget):
    """A checkable moment (as_of or known_at): unchecked means now."""

    def __init__(self, text: str, tip: str) -> None:
        super().__init__()
        self.check = QCheckBox(text)
        self.check.setToolTip(tip)
        self.edit = DateTimeEdit(QDateTime.currentDateTimeUtc())
        self.edit.setCalendarPopup(True)
        self.edit.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.edit.setAccessibleName(text.replace("&", "") + " moment")
        self.check.setAccessibleName(text.replace("&", ""))
        self.edit.setEnabled(False)
        self.check.toggled.connect(self.edit.setEnabled)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.check)
        layout.addWidget(self.edit)
        layout.addStretch(1)

    def value(self) -> str | None:
        if not self.check.isChecked():
            return None
        return self.edit.dateTime().toUTC().toString(Qt.DateFormat.ISODate)


class _EmptyStore(QWidget):
    """Said in the table's place while the store holds no records at all: how memories arrive."""

    def __init__(self) -> None:
        super().__init__()
        title = QLabel(f"<h2>{EMPTY_TITLE}</h2>")
        self.text = QLabel(EMPTY_TEXT)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.import_button = QPushButton("&Import history…")
        self.connect_button = QPushButton("Co&nnect an assistant…")
        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.connect_button)
        buttons.addStretch(1)
        column = QVBoxLayout(self)
        column.addStretch(1)
        column.addWidget(title)
        column.addWidget(self.text)
        column.addLayout(buttons)
        column.addStretch(2)
        self.setAccessibleName(EMPTY_TITLE)


class MemoriesView(QWidget):
    answered = Signal()  # the table shows the answer to the query on screen (or why there is none)
    import_requested = Signal()  # the empty store's "Import history…"
    assistants_requested = Signal()  # the empty store's "Connect an assistant…" (Settings)

    def __init__(self, ops: Operations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self._in_flight = False
        self._dirty = False
        self._open_id: str | None = None
        self.shown_query: RecordQuery | None = None  # the query whose answer the table shows
        self._opening: str | None = None
        self._build()
        ops.changed.connect(self._on_changed)
        self.refresh()  # the rows first: the window's first paint waits for them, not for the domain list
        self._load_domains()

    # -- layout --------------------------------------------------------------------------------
    def _build(self) -> None:
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search memories: results appear as you type")
        self.search.setAccessibleName("Search memories")
        self.search.setClearButtonEnabled(True)
        self.domain = _combo("Domain", [])
        self.type = _combo("Type", [t.value for t in MemoryType], plain_words)
        self.status = QComboBox()
        self.status.setAccessibleName("Status")
        for status in Status:
            self.status.addItem(status.value, status.value)
        self.scope = _combo("Access scope", [s.value for s in Scope])
        self.tier = _combo("Tier", list(TIERS))
        self.tier.setToolTip("Tiers are known for search results only.")
        self.learned = DateEdit()
        self.learned.setCalendarPopup(True)
        self.learned.setDisplayFormat("yyyy-MM-dd")
        self.learned.setMinimumDate(self.learned.minimumDate())
        self.learned.setSpecialValueText(ANY)
        self.learned.setDate(self.learned.minimumDate())
        self.learned.setAccessibleName("Learned since")
        self.as_of = _Moment("As o&f", "Valid time: show records as things stood in the world then.")
        self.known_at = _Moment("&Known at", "Knowledge time: show what the store held at that moment.")
        splitter = self._rows_and_detail()
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addLayout(self._filters())
        layout.addWidget(splitter, 1)
        self._connect()

    def _rows_and_detail(self) -> QSplitter:
        """The summary line and the table (or the empty store's page) beside the detail pane."""
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("Search summary")
        self.model = RecordTableModel(self)
        self.filtered = RecordFilterModel(self)
        self.filtered.setSourceModel(self.model)
        self.table = self._table()
        self.columns = RecordColumns(self.table, self)
        self.empty = _EmptyStore()
        self.empty.import_button.clicked.connect(self.import_requested)
        self.empty.connect_button.clicked.connect(self.assistants_requested)
        self.rows_or_empty = QStackedWidget()
        self.rows_or_empty.addWidget(self.table)
        self.rows_or_empty.addWidget(self.empty)
        self.detail = MemoryDetail(self.ops)
        self.detail.record_opened.connect(self.open_record)
        splitter = QSplitter()
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        above = QHBoxLayout()
        above.addWidget(self.summary, 1)
        above.addWidget(self.columns.button)
        column.addLayout(above)
        column.addWidget(self.rows_or_empty, 1)
        splitter.addWidget(left)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 2)  # the table takes two thirds of what a larger window adds
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([660, 340])
        splitter.setChildrenCollapsible(False)
        return splitter

    def _filters(self) -> QGridLayout:
        grid = QGridLayout()
        pairs = (
            ("&Domain", self.domain),
            ("&Type", self.type),
            ("Stat&us", self.status),
            ("Sc&ope", self.scope),
            ("T&ier", self.tier),
            ("&Learned since", self.learned),
        )
        for i, (text, widget) in enumerate(pairs):
            label = QLabel(text)
            label.setBuddy(widget)
            grid.addWidget(label, i // 3, (i % 3) * 2)
            grid.addWidget(widget, i // 3, (i % 3) * 2 + 1)
        for column in (1, 3, 5):  # the boxes take the width, their labels only what they need
            grid.setColumnStretch(column, 1)
        grid.addWidget(self.as_of, 2, 0, 1, 3)
        grid.addWidget(self.known_at, 2, 3, 1, 3)
        return grid

    def _table(self) -> QTableView:
        table = QTableView()
        table.setModel(self.filtered)
        table.setSortingEnabled(True)
        table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # keep the Vault's order until asked
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setAlternatingRowColors(True)
        table.setWordWrap(False)
        table.setAccessibleName("Records")
        table.setItemDelegateForColumn(STATEMENT, BadgeDelegate(table))  # "sensitive" before such a statement
        table.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it), as in the other views
        table.verticalHeader().hide()
        return table

    def _connect(self) -> None:
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self.refresh)
        self.search.textChanged.connect(self._debounce.start)
        for combo in (self.domain, self.type, self.status):
            combo.currentIndexChanged.connect(self.refresh)
        self.status.currentIndexChanged.connect(lambda: self.columns.follow_status_filter(self.status.currentData()))
        for moment in (self.as_of, self.known_at):
            moment.check.toggled.connect(self.refresh)
            moment.edit.dateTimeChanged.connect(self._debounce.start)
        for combo in (self.scope, self.tier):
            combo.currentIndexChanged.connect(self._apply_row_filter)
        self.learned.dateChanged.connect(self._apply_row_filter)
        self.table.selectionModel().selectionChanged.connect(self._selected)
        self.model.more_wanted.connect(self._more)

    # -- asking the Vault ----------------------------------------------------------------------
    def query(self) -> RecordQuery:
        return RecordQuery(
            text=self.search.text(),
            domain=self.domain.currentData(),
            type=self.type.currentData(),
            status=self.status.currentData(),
            as_of=self.as_of.value(),
            known_at=self.known_at.value(),
        )

    @Slot()
    def refresh(self) -> None:
        """Ask for the rows of the query on screen (or mark dirty while a search runs)."""
        if self._in_flight:
            self._dirty = True
            return
        query = self.query()
        if not query.text.strip() and (query.as_of or query.known_at):
            self.model.set_rows([])
            self._say("Type a few words to search as things stood then: listing does not go back in time.")
            return
        if query.text.strip() and query.status == "archived":
            self.model.set_rows([])
            self._say("Search never returns archived records: clear the search box to list them.")
            return
        self._in_flight, self._dirty = True, False
        self.ops.run(
            lambda v: vault_calls.find_records(v, self.ops.caller, query),
            lambda page: self._answered(query, page),
            self._failed,
        )

    def _answered(self, query: RecordQuery, page: RecordPage) -> None:
        self._in_flight = False
        if self._dirty or query != self.query():
            self.refresh()  # a stale answer: the person typed on meanwhile
            return
        self.model.set_rows(page.rows, page.next_cursor)
        self.shown_query = query
        self._apply_row_filter()
        self._say(self._summary_text(query, page))
        if self._open_id is not None:
            self._reselect(self._open_id)
        self.answered.emit()

    def _failed(self, error: MemvaultError) -> None:
        self._in_flight = False
        if self._dirty:
            self.refresh()
            return
        self.model.set_rows([])
        self._say(f"Could not search: {error.message}")
        self.answered.emit()

    def _say(self, text: str) -> None:
        """The line above the table; an empty store gets the page that says how memories arrive instead."""
        self.summary.setText(text)
        self.summary.setVisible(text != NO_MEMORIES)
        self.rows_or_empty.setCurrentWidget(self.empty if text == NO_MEMORIES else self.table)

    def _summary_text(self, query: RecordQuery, page: RecordPage) -> str:
        shown = self.filtered.rowCount()
        if page.skipped_reason:
            return f"No personal memory looks relevant to this search ({page.skipped_reason})."
        if not page.rows:
            if query.text.strip():
                return "Nothing matches this search. Try other words, another domain or type, or status “any”."
            if query.domain or query.type or query.status != "current":
                return "No records with these filters."
            return NO_MEMORIES
        if shown == 0:
            return "The rows found are all hidden by the scope, tier or learned-since filters."
        more = " (scroll for more)" if page.next_cursor else ""
        if page.searched:
            kind = "best match" if shown == 1 else "best matches"
        else:
            kind = "record" if shown == 1 else "records"
        return f"{shown} {kind}{more}"

    @Slot(str)
    def _more(self, cursor: str) -> None:
        query = self.query()
        self.ops.run(
            lambda v: vault_calls.find_records(v, self.ops.caller, query, cursor),
            lambda page: self.model.append_rows(page.rows, page.next_cursor) if query == self.query() else None,
            self._failed,
        )

    def _load_domains(self) -> None:
        self.ops.run(lambda v: vault_calls.domain_names(v, self.ops.caller), self._set_domains, lambda _e: None)

    def _set_domains(self, names: list[str]) -> None:
        chosen = self.domain.currentData()
        self.domain.blockSignals(True)
        self.domain.clear()
        self.domain.addItem(ANY, None)
        for name in names:
            self.domain.addItem(name, name)
        self.domain.setCurrentIndex(max(0, self.domain.findData(chosen)))
        self.domain.blockSignals(False)

    @Slot()
    def _apply_row_filter(self) -> None:
        date = self.learned.date()
        learned = None if date == self.learned.minimumDate() else date.toString(Qt.DateFormat.ISODate)
        self.filtered.set_filter(RowFilter(self.scope.currentData(), self.tier.currentData(), learned))

    # -- the open record -----------------------------------------------------------------------
    def _selected(self, selected: QItemSelection, _old: QItemSelection) -> None:
        rows = selected.indexes()
        if rows:
            source = self.filtered.mapToSource(rows[0])
            memory_id = self.model.row_at(source.row())["id"]
            if memory_id != self._open_id:
                self.open_record(memory_id)

    @Slot(str)
    def open_record(self, memory_id: str) -> None:
        """Show one record in the detail pane (also used by the graph and the timeline)."""
        self._opening = memory_id
        moment = self._moment_text()
        self.ops.run(
            lambda v: vault_calls.record_detail(v, self.ops.caller, memory_id),
            lambda detail: self._opened(memory_id, detail, moment),
            lambda error: self._open_failed(memory_id, error),
        )

    def _moment_text(self) -> str | None:
        query = self.query()
        parts = [
            f"as of {query.as_of}" if query.as_of else "",
            f"as known at {query.known_at}" if query.known_at else "",
        ]
        return ", ".join(p for p in parts if p) or None

    def _opened(self, memory_id: str, detail: RecordDetail, moment: str | None) -> None:
        if memory_id != self._opening:
            return  # another record was asked for meanwhile
        self._open_id = memory_id
        self.detail.show_detail(detail, moment if self.search.text().strip() else None)
        self._reselect(memory_id)

    def _open_failed(self, memory_id: str, error: MemvaultError) -> None:
        if memory_id == self._opening:
            self._open_id = None
            self.detail.show_detail(None)
            self.detail.say(f"Could not open the record: {error.message}")

    def _reselect(self, memory_id: str) -> None:
        row = self.model.row_of(memory_id)
        if row < 0:
            return
        index = self.filtered.mapFromSource(self.model.index(row, 0))
        if index.isValid() and self.table.currentIndex().row() != index.row():
            self.table.selectRow(index.row())  # _selected sees the open id and does not reopen it

    @Slot(object)
    def _on_changed(self, changes: Changes) -> None:
        if changes.touches(*MEMORY_KINDS, ChangeKind.DOMAIN_CHANGED):
            self._load_domains()
            self.refresh()
            if self._open_id is not None and (changes.everything or self._open_id in changes.ids):
                # The record asked for last: a correction names the old version, and opens the new one.
                self.open_record(self._opening or self._open_id)
