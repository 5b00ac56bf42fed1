"""Fusion with controls that read in both palettes: check boxes, radio buttons and a focus ring.

Fusion outlines an unchecked box with the window colour darkened, which on a dark palette is all
but the colour of the box itself: "As of" and "Known at" looked like plain labels. Here indicators
are drawn with a border that contrasts with the window (at least 3:1, the WCAG minimum for controls)
in either palette, checked ones filled with the accent colour, and every control that holds the
keyboard focus gets a two-pixel ring in the accent colour (text fields, buttons, boxes, and the frames of
tables, lists, text panes and canvases), so keyboard use can be followed.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleOption, QStyleOptionComplex, QWidget

Role = QPalette.ColorRole
State = QStyle.StateFlag
Primitive = QStyle.PrimitiveElement
Complex = QStyle.ComplexControl

BOXES = (Primitive.PE_IndicatorCheckBox, Primitive.PE_IndicatorItemViewItemCheck)
# What Fusion draws as a control's frame: the ring goes over it when the control has the focus.
RINGED_PRIMITIVES = (Primitive.PE_FrameLineEdit, Primitive.PE_PanelButtonCommand)
RINGED_COMPLEX = (Complex.CC_ComboBox, Complex.CC_SpinBox)


def dark(palette: QPalette) -> bool:
    return palette.color(Role.Window).lightness() < 128


def blend(one: QColor, other: QColor, share: float) -> QColor:
    """`share` of `one`, the rest of `other`."""
    return QColor.fromRgbF(
        one.redF() * share + other.redF() * (1 - share),
        one.greenF() * share + other.greenF() * (1 - share),
        one.blueF() * share + other.blueF() * (1 - share),
    )


def accent(palette: QPalette) -> QColor:
    """The highlight, lightened on a dark palette so it stands out from the window."""
    colour = palette.color(Role.Highlight)
    return colour.lighter(145) if dark(palette) else colour


def outline(palette: QPalette, enabled: bool = True) -> QColor:
    """An indicator's border: between text and base, well apart from the window in either palette."""
    return blend(palette.color(Role.Text), palette.color(Role.Base), 0.6 if enabled else 0.35)


def focus_ring(palette: QPalette) -> QColor:
    return accent(palette)


def luminance(colour: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF())


def contrast(one: QColor, other: QColor) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    light, deep = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (deep + 0.05)


class ReadableStyle(QProxyStyle):
    """Fusion, with its indicators and focus drawn here (see the module's note)."""

    def __init__(self) -> None:
        super().__init__("Fusion")

    def drawPrimitive(
        self, element: Primitive, option: QStyleOption, painter: QPainter, widget: QWidget | None = None
    ) -> None:
        if element in BOXES:
            self._box(option, painter)
            return
        if element == Primitive.PE_IndicatorRadioButton:
            self._radio(option, painter)
            return
        super().drawPrimitive(element, option, painter, widget)
        if element in RINGED_PRIMITIVES and option.state & State.State_HasFocus:
            self._ring(option, painter)
        elif element == Primitive.PE_FrameLineEdit and dark(option.palette):
            self._edge(option, painter)

    def drawControl(
        self, element: QStyle.ControlElement, option: QStyleOption, painter: QPainter, widget: QWidget | None = None
    ) -> None:
        super().drawControl(element, option, painter, widget)
        # The frame of a list, table, text pane or canvas (a scroll area): ringed while it holds the focus.
        if element == QStyle.ControlElement.CE_ShapedFrame and option.state & State.State_HasFocus:
            self._ring(option, painter)

    def drawComplexControl(
        self, control: Complex, option: QStyleOptionComplex, painter: QPainter, widget: QWidget | None = None
    ) -> None:
        super().drawComplexControl(control, option, painter, widget)
        if control in RINGED_COMPLEX and option.state & State.State_HasFocus:
            self._ring(option, painter)
        elif control == Complex.CC_SpinBox and dark(option.palette):
            self._edge(option, painter)

    # -- drawing -------------------------------------------------------------------------------
    @staticmethod
    def _frame(option: QStyleOption) -> QRectF:
        rect = QRectF(option.rect)
        side = min(rect.width(), rect.height()) - 1
        return QRectF(rect.center().x() - side / 2, rect.center().y() - side / 2, side, side)

    def _colours(self, option: QStyleOption) -> tuple[QColor, QColor, bool]:
        palette, state = option.palette, option.state
        enabled = bool(state & State.State_Enabled)
        on = bool(state & (State.State_On | State.State_NoChange))
        border = accent(palette) if enabled and (on or state & State.State_MouseOver) else outline(palette, enabled)
        fill = accent(palette) if on and enabled else blend(border, palette.color(Role.Base), 0.5) if on else None
        return border, fill if fill is not None else palette.color(Role.Base), on

    def _box(self, option: QStyleOption, painter: QPainter) -> None:
        frame = self._frame(option)
        border, fill, on = self._colours(option)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        width = max(1.5, frame.width() / 9)
        painter.setPen(QPen(border, width))
        painter.setBrush(fill)
        inset = frame.adjusted(width / 2, width / 2, -width / 2, -width / 2)
        painter.drawRoundedRect(inset, frame.width() / 6, frame.width() / 6)
        if on:
            mark = QPen(option.palette.color(Role.HighlightedText), max(1.5, frame.width() / 7))
            mark.setCapStyle(Qt.PenCapStyle.RoundCap)
            mark.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(mark)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            x, y, side = inset.x(), inset.y(), inset.width()
            if option.state & State.State_NoChange:  # partly checked: a dash
                painter.drawLine(QPointF(x + side * 0.28, y + side / 2), QPointF(x + side * 0.72, y + side / 2))
            else:
                path = QPainterPath(QPointF(x + side * 0.24, y + side * 0.52))
                path.lineTo(QPointF(x + side * 0.43, y + side * 0.71))
                path.lineTo(QPointF(x + side * 0.77, y + side * 0.31))
                painter.drawPath(path)
        painter.restore()

    def _radio(self, option: QStyleOption, painter: QPainter) -> None:
        frame = self._frame(option)
        border, fill, on = self._colours(option)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        width = max(1.5, frame.width() / 9)
        painter.setPen(QPen(border, width))
        painter.setBrush(option.palette.color(Role.Base))
        painter.drawEllipse(frame.adjusted(width / 2, width / 2, -width / 2, -width / 2))
        if on:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            dot = frame.width() * 0.26
            painter.drawEllipse(frame.center(), dot, dot)
        painter.restore()

    def _edge(self, option: QStyleOption, painter: QPainter) -> None:
        """A text field's edge on a dark palette (Fusion's is the window darkened: invisible there)."""
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(outline(option.palette, enabled=False), 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5), 2, 2)
        painter.restore()

    def _ring(self, option: QStyleOption, painter: QPainter) -> None:
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(focus_ring(option.palette), 2.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(QRectF(option.rect).adjusted(1, 1, -1, -1), 3, 3)
        painter.restore()
