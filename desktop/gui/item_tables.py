"""Read-only tables of plain rows (inbox, domains, settings lists): a QTableView over a small model.

No QTableWidgetItem anywhere: in PySide6 6.11.3 every item is a Python wrapper owned by the C++
table, and replacing or dropping them while Qt tore rows down crashed the process (in setItem,
and in a test's teardown). Here a refill swaps one Python list inside a model reset; the view
only ever asks the model for strings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

Index = QModelIndex | QPersistentModelIndex
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


class Cell(NamedTuple):
    """A cell whose tooltip is not its text (e.g. "3 days ago" with the exact time on hover)."""

    text: str
    tip: str


class _Rows(QAbstractTableModel):
    def __init__(self, columns: Sequence[str], right_aligned: Sequence[int], parent: QObject) -> None:
        super().__init__(parent)
        self.columns = list(columns)
        self.right_aligned = frozenset(right_aligned)
        self.rows: list[list[str]] = []
        self.tips: list[list[str]] = []

    def replace(self, rows: Sequence[Sequence[object]]) -> None:
        self.beginResetModel()
        self.rows = [[cell.text if isinstance(cell, Cell) else str(cell) for cell in row] for row in rows]
        self.tips = [[cell.tip if isinstance(cell, Cell) else str(cell) for cell in row] for row in rows]
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tips[index.row()][index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in self.right_aligned:
            return RIGHT
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.columns[section]
        return None


class ItemTable(QTableView):
    """Whole rows selected (one or many), not editable, columns sized to their contents, one stretched (the last
    unless `stretch` names another: the column that says most, e.g. a summary, takes the room left)."""

    def __init__(
        self,
        columns: Sequence[str],
        name: str,
        *,
        right_aligned: Sequence[int] = (),
        stretch: int | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.rows = _Rows(columns, right_aligned, self)
        self.setModel(self.rows)
        self.setAccessibleName(name)
        self.setTabKeyNavigation(False)  # Tab moves on to the next control; arrows move between rows
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)  # Shift/Ctrl pick many
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(False)
        self.verticalHeader().hide()
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        if stretch is None:
            header.setStretchLastSection(True)
        else:
            header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)

    def refill(self, rows: Sequence[Sequence[object]]) -> None:
        """Replace every row (the selection is cleared)."""
        self.rows.replace(rows)

    def row_count(self) -> int:
        return len(self.rows.rows)

    def text(self, row: int, column: int) -> str:
        return self.rows.rows[row][column]

    def selected_rows(self) -> list[int]:
        return sorted({index.row() for index in self.selectionModel().selectedRows()})
