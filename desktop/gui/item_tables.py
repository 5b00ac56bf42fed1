"""Read-only item tables (inbox, domains, settings lists): made and refilled one way.

Refilling drops every old row before new items are set: in PySide6 6.11.3 a `setItem` over a live
item sometimes crashed the process, so no new item ever replaces one.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem


def item_table(columns: Sequence[str], name: str, *, multi_select: bool = False) -> QTableWidget:
    """A table of whole-row selection, not editable, columns sized to their contents, the last stretched."""
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels(list(columns))
    table.setAccessibleName(name)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    if multi_select:
        table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    return table


def refill(table: QTableWidget, rows: Sequence[Sequence[QTableWidgetItem | str]]) -> None:
    """Replace every row by `rows` (a cell is an item, or text for a plain one)."""
    table.setRowCount(0)  # old items go first (see the module's note)
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            table.setItem(r, c, cell if isinstance(cell, QTableWidgetItem) else QTableWidgetItem(cell))
