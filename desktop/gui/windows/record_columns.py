"""The Memories table's columns: which are shown, how wide, and the menu that chooses them.

The statement takes whatever width the others leave (elided in the middle, whole on hover); every
other column is as wide as the widest value it can show (its vocabulary, a relative time), measured
in the table's font, so nothing is cut at any size or scale. Few columns are shown at first (the
detail pane has the rest); the Columns menu, on the header's context menu and on a button reachable
by keyboard, shows the others. The status column also appears by itself while the status filter
asks for something other than current records. In a narrow window the columns asked for give way
(GIVE_WAY) before the statement shrinks below STATEMENT_MIN_CHARS; they come back when there is room.
A narrow statement column wraps onto two lines (the rest elided in the middle, so the start and the
end both show); a wide one keeps one line per record.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHeaderView, QMenu, QTableView, QToolButton, QWidget

from memvault.desktop.gui.models.record_table import COLUMNS, STATEMENT, STATUS

STATEMENT_MIN_CHARS = 30  # the statement keeps this much: other columns give way first, then the table scrolls
WRAP_BELOW_CHARS = 64  # a statement column narrower than this wraps onto two lines (most then read whole)
# When the table is too narrow for every column asked for, they give way in this order (the first first).
GIVE_WAY = ("Valid until", "Valid from", "Score", "Tier", "Access scope", "Status", "Domain", "Learned", "Type")
ROOM_ORDER = tuple(next(i for i, column in enumerate(COLUMNS) if column.title == title) for title in GIVE_WAY)


def column_width(table: QTableView, column: int) -> int:
    """Room for the column's widest sample or its title with the sort arrow, plus the cell margins."""
    spec = COLUMNS[column]
    body, head = table.fontMetrics(), table.horizontalHeader().fontMetrics()
    widest = max([body.horizontalAdvance(text) for text in spec.samples] or [0])
    title = head.horizontalAdvance(spec.title) + head.height()  # the sort indicator beside it
    return max(widest, title) + 2 * body.averageCharWidth() + 4


class RecordColumns(QObject):
    """Sizes and shows the columns of `table`; `menu` lists them, checkable."""

    def __init__(self, table: QTableView, parent: QWidget) -> None:
        super().__init__(parent)
        self.table = table
        self.wanted = {i for i, column in enumerate(COLUMNS) if column.shown}
        self.status_filtered = False
        self.menu = QMenu("Columns", parent)
        self.actions: dict[int, QAction] = {}
        for index, column in enumerate(COLUMNS):
            if index == STATEMENT:
                continue
            action = self.menu.addAction(column.title)
            action.setCheckable(True)
            action.toggled.connect(lambda on, i=index: self.choose(i, on))
            self.actions[index] = action
        self.button = QToolButton(parent)
        self.button.setText("Colu&mns")
        self.button.setMenu(self.menu)
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.button.setAccessibleName("Choose the table's columns")
        self.button.setToolTip("Show or hide the table's columns (also on the header's context menu)")
        header = table.horizontalHeader()
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._menu_at)
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(table.fontMetrics().averageCharWidth() * 4)
        header.sectionResized.connect(self._resized)
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        table.viewport().installEventFilter(self)
        self._fitting = False
        self.widths: dict[int, int] = {}  # each column's width, kept while it is hidden (Qt's is 0 then)
        self.one_line = table.verticalHeader().defaultSectionSize()
        self.wrapped = False
        self.resize()
        self.apply()

    def resize(self) -> None:
        """Widths from the table's font (again after a font or scale change)."""
        header = self.table.horizontalHeader()
        self.widths = {i: column_width(self.table, i) for i in range(len(COLUMNS)) if i != STATEMENT}
        self._fitting = True
        try:
            for index in range(len(COLUMNS)):
                header.setSectionResizeMode(index, QHeaderView.ResizeMode.Interactive)
                if index != STATEMENT:
                    header.resizeSection(index, self.widths[index])
        finally:
            self._fitting = False
        self.fit()

    def statement_min_width(self) -> int:
        return self.table.fontMetrics().averageCharWidth() * STATEMENT_MIN_CHARS

    def wants(self, index: int) -> bool:
        """Asked for: by the person (the menu), by default, or (status) by the status filter."""
        return index == STATEMENT or index in self.wanted or (index == STATUS and self.status_filtered)

    def shown(self, index: int) -> bool:
        return not self.table.isColumnHidden(index)

    def choose(self, index: int, on: bool) -> None:
        """The person's choice from the menu."""
        if on:
            self.wanted.add(index)
        else:
            self.wanted.discard(index)
        self.apply()

    def follow_status_filter(self, status: str | None) -> None:
        """Show the status column while the filter asks for other than current records."""
        self.status_filtered = status != "current"
        self.apply()

    def apply(self) -> None:
        for index, action in self.actions.items():
            action.blockSignals(True)
            action.setChecked(self.wants(index))
            action.blockSignals(False)
        self.fit()

    def fit(self) -> None:
        """Show what is asked for that fits beside the statement's minimum (giving way in ROOM_ORDER), and give
        the statement the rest of the width."""
        if self._fitting:
            return
        self._fitting = True
        try:
            header, room = self.table.horizontalHeader(), self.table.viewport().width() - self.statement_min_width()
            showing = [i for i in range(len(COLUMNS)) if i != STATEMENT and self.wants(i)]
            for index in ROOM_ORDER:
                if sum(self.widths[i] for i in showing) <= room:
                    break
                if index in showing and len(showing) > 1:
                    showing.remove(index)
            for index in range(len(COLUMNS)):
                hidden = index != STATEMENT and index not in showing
                if self.table.isColumnHidden(index) != hidden:
                    self.table.setColumnHidden(index, hidden)
                    if not hidden and index != STATEMENT:
                        header.resizeSection(index, self.widths[index])
            others = sum(self.widths[i] for i in showing)
            statement = max(self.statement_min_width(), self.table.viewport().width() - others)
            header.resizeSection(STATEMENT, statement)
            self._wrap(statement < self.table.fontMetrics().averageCharWidth() * WRAP_BELOW_CHARS)
        finally:
            self._fitting = False

    def _wrap(self, wrapped: bool) -> None:
        """Two lines per record (wrapped) or one."""
        if wrapped == self.wrapped:
            return
        self.wrapped = wrapped
        rows = self.table.verticalHeader()
        self.table.setWordWrap(wrapped)
        lines = self.table.fontMetrics().lineSpacing()
        rows.setDefaultSectionSize(self.one_line + lines if wrapped else self.one_line)

    def _resized(self, index: int, _old: int, new: int) -> None:
        if self._fitting or index == STATEMENT or new == 0:  # ours, or a column being hidden
            return
        self.widths[index] = new  # the person widened or narrowed a column
        self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.fit()
        return False

    def _menu_at(self, point: QPoint) -> None:
        self.menu.popup(self.table.horizontalHeader().mapToGlobal(point))
