"""The Memories table: records (or search hits) as a sortable, filterable Qt item model."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)

from memvault.core.vocabulary.model import MemoryType, Scope, Status
from memvault.desktop.gui import human_time
from memvault.desktop.gui.badges import BADGE_ROLE
from memvault.desktop.gui.models.vault_calls import Row
from memvault.desktop.gui.models.write_reasons import SENSITIVE, is_sensitive

Index = QModelIndex | QPersistentModelIndex
SORT_ROLE = Qt.ItemDataRole.UserRole
ID_ROLE = Qt.ItemDataRole.UserRole + 1


def plain_words(value: object) -> str:
    """A vocabulary value as words: OPEN_QUESTION -> "Open question", local_only -> "Local only"."""
    text = str(value or "").replace("_", " ").strip()
    return text[:1].upper() + text[1:].lower() if text else "—"


@dataclass(frozen=True)
class Column:
    title: str
    show: Callable[[Row], str]
    sort_key: Callable[[Row], Any]
    tip: Callable[[Row], str] | None = None  # the tooltip (default: none)
    samples: tuple[str, ...] = ()  # the widest values it shows, to size it; none: the statement, which stretches
    shown: bool = True  # shown unless the person asks for it (the Columns menu)


def _time(name: str, title: str, *, shown: bool = False) -> Column:
    def show(row: Row) -> str:
        return human_time.human(row.get(name))

    def tip(row: Row) -> str:
        return human_time.hover(row.get(name))

    samples = ("22 hours ago", "45 minutes ago", human_time.human("2026-12-28T10:00:00Z", human_time.now_utc()))
    return Column(title, show, lambda row: row.get(name) or "", tip, samples, shown)


def _text(name: str, title: str, values: tuple[str, ...]) -> Column:
    return Column(
        title,
        lambda row: str(row.get(name) or "—"),
        lambda row: str(row.get(name) or ""),
        samples=values,
        shown=False,
    )


def _words(name: str, title: str, values: tuple[str, ...], *, shown: bool = False) -> Column:
    return Column(
        title,
        lambda row: plain_words(row.get(name)),
        lambda row: str(row.get(name) or ""),
        samples=tuple(plain_words(v) for v in values),
        shown=shown,
    )


STATEMENT = 0
COLUMNS: tuple[Column, ...] = (
    Column(
        "Statement",
        lambda row: str(row["statement"]),
        lambda row: str(row["statement"]).casefold(),
        lambda row: str(row["statement"]),
    ),
    _words("type", "Type", tuple(t.value for t in MemoryType), shown=True),
    Column(
        "Domain",
        lambda row: str(row.get("domain") or "—"),
        lambda row: str(row.get("domain") or ""),
        lambda row: str(row.get("domain") or ""),
        ("home-renovation",),
    ),
    _text("status", "Status", tuple(s.value for s in Status)),
    _text("access_scope", "Access scope", tuple(s.value for s in Scope)),
    _text("tier", "Tier", ("hot", "warm", "cold")),
    Column(
        "Score",
        lambda row: f"{row['score']:.2f}" if "score" in row else "—",
        lambda row: row.get("score", -1.0),
        samples=("0.00",),
        shown=False,
    ),
    _time("learned_at", "Learned", shown=True),
    _time("valid_from", "Valid from"),
    _time("valid_until", "Valid until"),
)
STATUS = next(i for i, column in enumerate(COLUMNS) if column.title == "Status")


class RecordTableModel(QAbstractTableModel):
    """Rows of records; `more_wanted` asks the view for the next page of a list (fetchMore)."""

    more_wanted = Signal(str)  # the cursor of the next page

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[Row] = []
        self._next_cursor: str | None = None
        self._asked: str | None = None

    # -- filling -------------------------------------------------------------------------------
    def set_rows(self, rows: list[Row], next_cursor: str | None = None) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._next_cursor = next_cursor
        self._asked = None
        self.endResetModel()

    def append_rows(self, rows: list[Row], next_cursor: str | None) -> None:
        known = {row["id"] for row in self._rows}
        fresh = [row for row in rows if row["id"] not in known]
        if fresh:
            self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows) + len(fresh) - 1)
            self._rows += fresh
            self.endInsertRows()
        self._next_cursor = next_cursor

    def row_at(self, row: int) -> Row:
        return self._rows[row]

    def row_of(self, memory_id: str) -> int:
        return next((i for i, row in enumerate(self._rows) if row["id"] == memory_id), -1)

    # -- the Qt model --------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = self._rows[index.row()], COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.show(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            return column.tip(row) if column.tip is not None else None
        if role == SORT_ROLE:
            return column.sort_key(row)
        if role == ID_ROLE:
            return row["id"]
        if index.column() == STATEMENT and is_sensitive(row):
            return self._sensitive(row, role)
        return None

    @staticmethod
    def _sensitive(row: Row, role: int) -> Any:
        """A sensitive record's statement carries the badge, and says it to screen readers."""
        if role == BADGE_ROLE:
            return SENSITIVE
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{SENSITIVE}: {row['statement']}"
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section].title
        return None

    def canFetchMore(self, parent: Index) -> bool:
        return not parent.isValid() and self._next_cursor is not None and self._asked != self._next_cursor

    def fetchMore(self, parent: Index) -> None:
        if self.canFetchMore(parent) and self._next_cursor:
            self._asked = self._next_cursor
            self.more_wanted.emit(self._next_cursor)


@dataclass(frozen=True)
class RowFilter:
    """Filters the Vault does not take as arguments, applied to the rows shown."""

    access_scope: str | None = None
    tier: str | None = None
    learned_from: str | None = None  # ISO date: rows learned on or after it

    def accepts(self, row: Row) -> bool:
        if self.access_scope and row.get("access_scope") != self.access_scope:
            return False
        if self.tier and row.get("tier") != self.tier:
            return False
        return not (self.learned_from and str(row.get("learned_at") or "") < self.learned_from)


class RecordFilterModel(QSortFilterProxyModel):
    """Sorts on each column's raw value and hides rows a `RowFilter` refuses."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._filter = RowFilter()
        self.setSortRole(SORT_ROLE)

    def set_filter(self, row_filter: RowFilter) -> None:
        self.beginFilterChange()
        self._filter = row_filter
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        source = self.sourceModel()
        assert isinstance(source, RecordTableModel)
        return self._filter.accepts(source.row_at(source_row))
