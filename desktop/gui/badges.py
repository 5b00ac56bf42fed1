"""Badges: a word in a filled pill ("sensitive") before a table cell's text or in a detail pane's rich text.

A model marks a cell with `BADGE_ROLE` (the word) and says the word to screen readers in its
`AccessibleTextRole` ("sensitive: ..."); `BadgeDelegate` draws the pill and moves the cell's text
over to make room. The colours come from the palette: a deep tint of the badge's hue on a light one,
a pale tint on a dark one, the word in the page's own colour, so the pill stands out from the page
and its word from the pill (at least 4.5:1 in both palettes, tests/gui/test_badges.py).
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from memvault.desktop.gui.readable_style import blend, dark

Index = QModelIndex | QPersistentModelIndex
BADGE_ROLE = Qt.ItemDataRole.UserRole + 8  # the badge's word for a cell, or None
HUE = QColor("#9c2f8f")  # a plum: not the selection's blue, not an error's red


def badge_colours(palette: QPalette) -> tuple[QColor, QColor]:
    """The pill's fill and its word's colour in this palette."""
    text, page = palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base)
    return blend(HUE, text, 0.35 if dark(palette) else 0.75), page


def badge_html(word: str, palette: QPalette, tip: str = "") -> str:
    """The badge in rich text (a QTextBrowser): the word, bold, on the pill's colour; `tip` on hover."""
    fill, ink = badge_colours(palette)
    title = f' title="{escape(tip)}"' if tip else ""
    return (
        f'<span style="background-color:{fill.name()}; color:{ink.name()}; font-weight:600"{title}>'
        f"&nbsp;{escape(word)}&nbsp;</span>"
    )


def _badge_font(font: QFont) -> QFont:
    bold = QFont(font)
    bold.setWeight(QFont.Weight.DemiBold)
    return bold


def badge_rect(cell: QRect, word: str, font: QFont) -> QRect:
    """Where the pill goes in a cell: at its start, centred on its height, as wide as the word and its padding."""
    metrics = QFontMetrics(_badge_font(font))
    pad = metrics.averageCharWidth()
    height = min(cell.height() - 2, metrics.height() + 2)
    width = metrics.horizontalAdvance(word) + 2 * pad
    return QRect(cell.left() + pad // 2 + 2, cell.center().y() - height // 2, width, height)


def paint_badge(painter: QPainter, rect: QRect, word: str, palette: QPalette, font: QFont) -> None:
    fill, ink = badge_colours(palette)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(fill)
    radius = rect.height() / 2
    painter.drawRoundedRect(QRectF(rect), radius, radius)
    painter.setPen(ink)
    painter.setFont(_badge_font(font))
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, word)
    painter.restore()


class BadgeDelegate(QStyledItemDelegate):
    """Draws a cell's badge (`BADGE_ROLE`) before its text; cells without one are drawn as usual."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        word = index.data(BADGE_ROLE)
        if not word:
            super().paint(painter, option, index)
            return
        whole = QStyleOptionViewItem(option)
        self.initStyleOption(whole, index)
        whole.text = ""
        widget = whole.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, whole, painter, widget)  # the row's background
        pill = badge_rect(option.rect, str(word), option.font)
        painter.save()
        painter.setClipRect(option.rect)  # a column narrower than the badge cuts it: it never covers the next one
        paint_badge(painter, pill, str(word), option.palette, option.font)
        painter.restore()
        rest = QStyleOptionViewItem(option)
        rest.rect = option.rect.adjusted(pill.right() + 1 - option.rect.left(), 0, 0, 0)
        rest.state &= ~QStyle.StateFlag.State_HasFocus  # the focus frame, if any, was drawn round the whole cell
        super().paint(painter, rest, index)
