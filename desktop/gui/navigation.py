"""The main window's navigation: a view per row, each with an icon drawn here and, where it helps, a count.

Icons are simple line drawings in the palette's text colour (no image files, no downloads), made
again when the palette changes, so they read in light and dark. Counts (records, pending proposals,
domains) come from the window, which reads them after every change the feed reports; a pending
proposal count is drawn as a badge in an attention colour, the others as quiet numbers.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

Index = QModelIndex | QPersistentModelIndex
COUNT_ROLE = Qt.ItemDataRole.UserRole + 10  # an int, or None for no count
ATTENTION_ROLE = Qt.ItemDataRole.UserRole + 11  # True: the count asks for the person's attention (a badge)
ATTENTION = QColor("#c2410c")  # a deep orange, white text on it reads at 5:1
ICON_PIXELS = 64
Draw = Callable[[QPainter], None]  # draws in a 24 x 24 box


def _memories(p: QPainter) -> None:  # a list: bullets and lines
    for y in (6.0, 12.0, 18.0):
        p.drawEllipse(QPointF(4.5, y), 1.2, 1.2)
        p.drawLine(QPointF(9, y), QPointF(21, y))


def _timeline(p: QPainter) -> None:  # bars starting at different times
    for y, start, end in ((6.0, 3.0, 14.0), (12.0, 8.0, 21.0), (18.0, 5.0, 17.0)):
        p.drawLine(QPointF(start, y), QPointF(end, y))


def _graph(p: QPainter) -> None:  # three nodes joined
    nodes = (QPointF(5, 17), QPointF(12, 6), QPointF(19, 16))
    p.drawLine(nodes[0], nodes[1])
    p.drawLine(nodes[1], nodes[2])
    p.drawLine(nodes[0], nodes[2])
    for node in nodes:
        p.drawEllipse(node, 2.6, 2.6)


def _inbox(p: QPainter) -> None:  # a tray with its notch
    path = QPainterPath(QPointF(3, 13))
    for x, y in ((8, 13), (9.5, 16), (14.5, 16), (16, 13), (21, 13), (21, 20), (3, 20), (3, 13)):
        path.lineTo(QPointF(x, y))
    p.drawPath(path)
    p.drawLine(QPointF(12, 3), QPointF(12, 10))
    p.drawLine(QPointF(9, 7.5), QPointF(12, 10.5))
    p.drawLine(QPointF(15, 7.5), QPointF(12, 10.5))


def _domains(p: QPainter) -> None:  # four regions
    for x, y in ((3.5, 3.5), (13.5, 3.5), (3.5, 13.5), (13.5, 13.5)):
        p.drawRoundedRect(QRectF(x, y, 7, 7), 1.5, 1.5)


def _settings(p: QPainter) -> None:  # sliders
    for y, knob in ((6.0, 8.0), (12.0, 16.0), (18.0, 11.0)):
        p.drawLine(QPointF(3, y), QPointF(21, y))
        p.drawEllipse(QPointF(knob, y), 2.2, 2.2)


def _benchmark(p: QPainter) -> None:  # a bar chart
    for x, top in ((5.0, 14.0), (11.0, 9.0), (17.0, 4.0)):
        p.drawRect(QRectF(x - 1.8, top, 3.6, 20 - top))
    p.drawLine(QPointF(2, 20.5), QPointF(22, 20.5))


DRAWINGS: dict[str, Draw] = {
    "Memories": _memories,
    "Timeline": _timeline,
    "Graph": _graph,
    "Inbox": _inbox,
    "Domains": _domains,
    "Settings": _settings,
    "Benchmark": _benchmark,
}


def drawn(draw: Draw, colour: QColor) -> QPixmap:
    pixmap = QPixmap(ICON_PIXELS, ICON_PIXELS)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.scale(ICON_PIXELS / 24, ICON_PIXELS / 24)
    pen = QPen(colour, 1.8)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    draw(painter)
    painter.end()
    return pixmap


def view_icon(name: str, palette: QPalette) -> QIcon:
    """The view's icon in the palette's text colour, and in the selection's text colour when selected."""
    icon = QIcon()
    draw = DRAWINGS[name]
    icon.addPixmap(drawn(draw, palette.color(QPalette.ColorRole.Text)), QIcon.Mode.Normal)
    icon.addPixmap(drawn(draw, palette.color(QPalette.ColorRole.HighlightedText)), QIcon.Mode.Selected)
    icon.addPixmap(
        drawn(draw, palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)), QIcon.Mode.Disabled
    )
    return icon


class _CountDelegate(QStyledItemDelegate):
    """The row as Qt draws it, and its count at the right: a badge when it asks for attention."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        super().paint(painter, option, index)
        count = index.data(COUNT_ROLE)
        if count is None:
            return
        text = str(count) if count < 1000 else "999+"
        metrics = option.fontMetrics
        height = metrics.height()
        width = max(height, metrics.horizontalAdvance(text) + height * 0.7)
        rect = QRectF(option.rect.right() - width - height * 0.3, option.rect.center().y() - height / 2, width, height)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if index.data(ATTENTION_ROLE) and count > 0:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(ATTENTION)
            painter.drawRoundedRect(rect, height / 2, height / 2)
            painter.setPen(QColor("#ffffff"))
        else:
            role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.PlaceholderText
            painter.setPen(option.palette.color(role))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        hint = super().sizeHint(option, index)
        return QSize(hint.width(), max(hint.height(), round(option.fontMetrics.height() * 1.9)))


class Navigation(QListWidget):
    """The views by name, with icons; `set_count` puts a number beside one (None removes it)."""

    def __init__(self, names: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.names = list(names)
        self.setAccessibleName("Views")
        self.setAccessibleDescription("The views of memvault; Ctrl+1 to Ctrl+7 switch between them")
        self.setItemDelegate(_CountDelegate(self))
        size = round(self.fontMetrics().height() * 1.25)
        self.setIconSize(QSize(size, size))
        self.setSpacing(1)
        for name in names:
            item = QListWidgetItem(name)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, name)
            self.addItem(item)
        self._draw_icons()
        metrics = self.fontMetrics()
        badge = metrics.horizontalAdvance("999") + metrics.height()  # a count with its badge's padding
        widest = max(metrics.horizontalAdvance(name) for name in names)
        self.setFixedWidth(round(widest + badge + size + metrics.averageCharWidth() * 5))

    def _draw_icons(self) -> None:
        for row, name in enumerate(self.names):
            self.item(row).setIcon(view_icon(name, self.palette()))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._draw_icons()

    def set_count(self, name: str, count: int | None, what: str = "", *, attention: bool = False) -> None:
        """`count` beside `name` (None: none); `what` says it aloud ("4 waiting") for screen readers."""
        item = self.item(self.names.index(name))
        item.setData(COUNT_ROLE, count)
        item.setData(ATTENTION_ROLE, attention)
        said = f"{name}, {count} {what}".strip() if count is not None else name
        item.setData(Qt.ItemDataRole.AccessibleTextRole, said)
        item.setToolTip(said if count is not None else "")

    def count_of(self, name: str) -> int | None:
        value = self.item(self.names.index(name)).data(COUNT_ROLE)
        return value if isinstance(value, int) else None
