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

from memvault.desktop.gui.models.vault_calls import Row

Index = QModelIndex | QPersistentModelIndex
SORT_ROLE = Qt.ItemDataRole.UserRole
ID_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True)
class Column:
    title: str
    show: Callable[[Row], str]
    sort_key: Callable[[Row], Any]


def _time(name: str) -> Column:
    def show(row: Row) -> str:
        value = row.get(name)
        return str(value)[:16].replace("T", " ") if value else "—"

    return Column(name.replace("_", " ").capitalize(), show, lambda row: row.get(name) or "")


def _text(name: str, title: str) -> Column:
    return Column(title, lambda row: str(row.get(name) or "—"), lambda row: str(row.get(name) or ""))


COLUMNS: tuple[Column, ...] = (
    Column("Statement", lambda row: str(row["statement"]), lambda row: str(row["statement"]).casefold()),
    _text("type", "Type"),
    _text("domain", "Domain"),
    _text("status", "Status"),
    _text("access_scope", "Access scope"),
    _text("tier", "Tier"),
    Column("Score", lambda row: f"{row['score']:.2f}" if "score" in row else "—", lambda row: row.get("score", -1.0)),
    _time("learned_at"),
    _time("valid_from"),
    _time("valid_until"),
)


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
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 0:
            return str(row["statement"])
        if role == SORT_ROLE:
            return column.sort_key(row)
        if role == ID_ROLE:
            return row["id"]
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
