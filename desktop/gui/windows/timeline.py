"""The Timeline view: records and their versions in time.

Each version is a lane. Its bar is when the statement held in the world (event time: valid
from/until); triangles under it are knowledge time (when the store learned it, superseded or
archived it); a dashed step leads from a superseded version to the one that replaced it.
Zoom runs from decades to days (wheel, +/-, or the zoom box); drag or arrow keys scroll.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal, Slot
from PySide6.QtGui import (
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygonF,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from memvault.core.vocabulary.errors import MemvaultError
from memvault.desktop.gui.models import vault_calls
from memvault.desktop.gui.models.timeline_lanes import Lane, build_lanes, span, ticks
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.windows.view_refresh import ShownRefresher

ZOOMS = {"Fit": 0.0, "Decades": 0.03, "Years": 0.4, "Months": 5.0, "Weeks": 20.0, "Days": 120.0}
MIN_PER_DAY, MAX_PER_DAY = 0.005, 400.0
MARGIN = 24
LEGEND = (
    "Bar: valid in the world (event time) · ▲ under it: when the store learned, superseded or archived it "
    "(knowledge time) · dashed step: replaced by the next version · ◆ due · ▶ still valid"
)
ANY = "any"


class TimelineCanvas(QAbstractScrollArea):
    lane_activated = Signal(str)  # a record id, clicked or chosen with Enter

    def __init__(self) -> None:
        super().__init__()
        self.lanes: list[Lane] = []
        self.first, self.last = 0.0, 1.0
        self.per_day = 1.0
        self.current = -1
        self.empty_text = ""  # said in the middle when there are no lanes
        self._fit = True
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName("Timeline of records and their versions")
        self.horizontalScrollBar().valueChanged.connect(self.viewport().update)
        self.verticalScrollBar().valueChanged.connect(self.viewport().update)

    # -- geometry ------------------------------------------------------------------------------
    @property
    def line(self) -> float:
        return float(self.fontMetrics().height())

    @property
    def lane_height(self) -> float:
        return self.line * 2.2

    @property
    def header(self) -> float:
        return self.line * 1.8

    def x_of(self, day: float) -> float:
        return MARGIN + (day - self.first) * self.per_day - self.horizontalScrollBar().value()

    def day_at(self, x: float) -> float:
        return self.first + (x - MARGIN + self.horizontalScrollBar().value()) / self.per_day

    def lane_top(self, index: int) -> float:
        return self.header + index * self.lane_height - self.verticalScrollBar().value()

    def set_lanes(self, lanes: list[Lane]) -> None:
        self.lanes = lanes
        self.first, self.last = span(lanes)
        self.current = min(self.current, len(lanes) - 1)
        if self._fit:
            self.fit()
        self._update_scrollbars()
        self.viewport().update()

    def fit(self) -> None:
        self._fit = True
        width = max(100.0, self.viewport().width() - 2 * MARGIN - self.line * 10)
        self.per_day = min(MAX_PER_DAY, max(MIN_PER_DAY, width / max(self.last - self.first, 1.0)))
        self._update_scrollbars()

    def set_zoom(self, per_day: float, anchor_x: float | None = None) -> None:
        """Pixels per day; the day under `anchor_x` (default: the middle) stays where it is."""
        x = self.viewport().width() / 2 if anchor_x is None else anchor_x
        day = self.day_at(x)
        self._fit = False
        self.per_day = min(MAX_PER_DAY, max(MIN_PER_DAY, per_day))
        self._update_scrollbars()
        self.horizontalScrollBar().setValue(round(MARGIN + (day - self.first) * self.per_day - x))
        self.viewport().update()

    def _update_scrollbars(self) -> None:
        width = (self.last - self.first) * self.per_day + 2 * MARGIN + self.line * 10
        horizontal, vertical = self.horizontalScrollBar(), self.verticalScrollBar()
        horizontal.setRange(0, max(0, round(width - self.viewport().width())))
        horizontal.setPageStep(self.viewport().width())
        horizontal.setSingleStep(40)
        height = self.header + len(self.lanes) * self.lane_height
        vertical.setRange(0, max(0, round(height - self.viewport().height())))
        vertical.setPageStep(self.viewport().height())
        vertical.setSingleStep(round(self.lane_height))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._fit:
            self.fit()
        self._update_scrollbars()

    # -- painting ------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self.viewport())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        if not self.lanes:  # no axis over nothing: say why it is empty
            painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(
                self.viewport().rect(), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.empty_text
            )
            painter.end()
            return
        self._paint_grid(painter, palette)
        height = self.lane_height
        top_index = max(0, int((self.verticalScrollBar().value()) // height))
        bottom_index = min(len(self.lanes), top_index + int(self.viewport().height() // height) + 2)
        for index in range(top_index, bottom_index):
            self._paint_lane(painter, palette, index)
        self._paint_header(painter, palette)
        painter.end()

    def _visible_ticks(self) -> list[tuple[float, str]]:
        return ticks(self.day_at(0), self.day_at(self.viewport().width()), self.per_day, self.line * 5)

    def _paint_grid(self, painter: QPainter, palette: QPalette) -> None:
        grid = palette.color(QPalette.ColorRole.Text)
        grid.setAlpha(40)  # a faint line in either palette
        painter.setPen(QPen(grid, 1))
        for day, _label in self._visible_ticks():
            x = self.x_of(day)
            painter.drawLine(QPointF(x, self.header), QPointF(x, self.viewport().height()))

    def _paint_header(self, painter: QPainter, palette: QPalette) -> None:
        painter.fillRect(QRectF(0, 0, self.viewport().width(), self.header), palette.color(QPalette.ColorRole.Window))
        painter.setPen(palette.color(QPalette.ColorRole.WindowText))
        for day, label in self._visible_ticks():
            painter.drawText(QPointF(self.x_of(day) + 3, self.line * 1.2), label)
        painter.drawLine(QPointF(0, self.header), QPointF(self.viewport().width(), self.header))

    def _bar(self, index: int) -> QRectF:
        lane = self.lanes[index]
        left = self.x_of(lane.start)
        right = self.x_of(lane.end if lane.end is not None else self.last) + (0 if lane.end is not None else 12)
        top = self.lane_top(index) + self.line * 1.1
        return QRectF(left, top, max(3.0, right - left), self.line * 0.55)

    def _paint_lane(self, painter: QPainter, palette: QPalette, index: int) -> None:
        lane, bar, top = self.lanes[index], self._bar(index), self.lane_top(index)
        if index == self.current:
            painter.fillRect(
                QRectF(0, top, self.viewport().width(), self.lane_height),
                palette.color(QPalette.ColorRole.AlternateBase),
            )
        role = QPalette.ColorRole.Mid if lane.superseded else QPalette.ColorRole.Highlight
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(palette.color(role))
        painter.drawRoundedRect(bar, 3, 3)
        if lane.end is None:  # still valid: an arrow head at the open end
            tip = bar.right() + 8
            painter.drawPolygon(
                QPolygonF(
                    [
                        QPointF(tip - 8, bar.top() - 2),
                        QPointF(tip, bar.center().y()),
                        QPointF(tip - 8, bar.bottom() + 2),
                    ]
                )
            )
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        label_x = max(bar.left(), 4.0)
        status = "" if lane.record.get("status") == "current" else f"  ({lane.record.get('status')})"
        text = self.fontMetrics().elidedText(
            f"{lane.record['statement']}{status}",
            Qt.TextElideMode.ElideRight,
            max(60, self.viewport().width() - round(label_x) - 8),
        )
        painter.drawText(QPointF(label_x, top + self.line * 0.9), text)
        self._paint_markers(painter, palette, lane, bar)
        if lane.next_lane is not None:
            self._paint_step(painter, palette, bar, self._bar(lane.next_lane))

    def _paint_markers(self, painter: QPainter, palette: QPalette, lane: Lane, bar: QRectF) -> None:
        size = self.line * 0.3
        base = bar.bottom() + size * 1.6
        for day, kind in lane.markers:
            x = self.x_of(day)
            if kind == "due":
                painter.setBrush(palette.color(QPalette.ColorRole.Link))
                painter.drawPolygon(
                    QPolygonF(
                        [
                            QPointF(x, bar.top() - 2),
                            QPointF(x + size, bar.center().y()),
                            QPointF(x, bar.bottom() + 2),
                            QPointF(x - size, bar.center().y()),
                        ]
                    )
                )
            else:
                painter.setBrush(palette.color(QPalette.ColorRole.Text))
                painter.drawPolygon(
                    QPolygonF([QPointF(x, bar.bottom() + 1), QPointF(x + size, base), QPointF(x - size, base)])
                )

    def _paint_step(self, painter: QPainter, palette: QPalette, old: QRectF, new: QRectF) -> None:
        pen = QPen(palette.color(QPalette.ColorRole.Link), 1.5, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        x = old.right()
        painter.drawLine(QPointF(x, old.center().y()), QPointF(x, new.center().y()))
        painter.drawLine(QPointF(x, new.center().y()), QPointF(new.left(), new.center().y()))

    # -- input ---------------------------------------------------------------------------------
    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            super().wheelEvent(event)
            return
        factor = 1.25 if event.angleDelta().y() > 0 else 0.8
        self.set_zoom(self.per_day * factor, event.position().x())

    def mousePressEvent(self, event: QMouseEvent) -> None:
        index = int((event.position().y() - self.header + self.verticalScrollBar().value()) // self.lane_height)
        if event.position().y() > self.header and 0 <= index < len(self.lanes):
            self.choose(index)
            self.lane_activated.emit(str(self.lanes[index].record["id"]))

    def choose(self, index: int) -> None:
        self.current = index
        top = self.header + index * self.lane_height
        bar = self.verticalScrollBar()
        if top - self.header < bar.value():
            bar.setValue(round(top - self.header))
        elif top + self.lane_height > bar.value() + self.viewport().height():
            bar.setValue(round(top + self.lane_height - self.viewport().height()))
        self.viewport().update()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down) and self.lanes:
            step = -1 if key == Qt.Key.Key_Up else 1
            self.choose(min(len(self.lanes) - 1, max(0, self.current + step)))
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and 0 <= self.current < len(self.lanes):
            self.lane_activated.emit(str(self.lanes[self.current].record["id"]))
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.set_zoom(self.per_day * 1.5)
        elif key == Qt.Key.Key_Minus:
            self.set_zoom(self.per_day / 1.5)
        else:
            super().keyPressEvent(event)


class TimelineView(QWidget):
    """Emits `record_opened(memory_id)` when a lane is clicked or chosen with Enter."""

    record_opened = Signal(str)

    def __init__(self, ops: Operations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self._asked = 0
        self.domain = QComboBox()
        self.domain.setAccessibleName("Domain")
        self.domain.addItem(ANY, None)
        self.entity = QLineEdit()
        self.entity.setPlaceholderText("an entity, e.g. a person")
        self.entity.setAccessibleName("Entity")
        self.project = QLineEdit()
        self.project.setPlaceholderText("a project name")
        self.project.setAccessibleName("Project")
        self.zoom = QComboBox()
        self.zoom.setAccessibleName("Zoom")
        self.zoom.addItems(list(ZOOMS))
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        legend = QLabel(LEGEND)
        legend.setWordWrap(True)
        self.canvas = TimelineCanvas()
        self.canvas.lane_activated.connect(self.record_opened)
        bar = QHBoxLayout()
        for text, widget in (
            ("&Domain", self.domain),
            ("&Entity", self.entity),
            ("&Project", self.project),
            ("&Zoom", self.zoom),
        ):
            label = QLabel(text)
            label.setBuddy(widget)
            bar.addWidget(label)
            bar.addWidget(widget, 1 if isinstance(widget, QLineEdit) else 0)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(legend)
        layout.addWidget(self.summary)
        layout.addWidget(self.canvas, 1)
        self.domain.currentIndexChanged.connect(self.refresh)
        self.entity.editingFinished.connect(self.refresh)
        self.project.editingFinished.connect(self.refresh)
        self.zoom.currentTextChanged.connect(self._zoom_chosen)
        self._refresher = ShownRefresher(self, self.refresh)
        ops.changed.connect(self._refresher.changed)
        ops.run(lambda v: vault_calls.domain_names(v, ops.caller), self._set_domains, lambda _e: None)

    def _set_domains(self, names: list[str]) -> None:
        for name in names:
            self.domain.addItem(name, name)

    @Slot()
    def refresh(self) -> None:
        self._asked += 1
        asked, project = self._asked, self.project.text().strip()
        domain, entity = self.domain.currentData(), self.entity.text().strip() or None
        caller = self.ops.caller
        if project:
            self.ops.run(
                lambda v: vault_calls.project_events(v, caller, project), lambda e: self._show(asked, e), self._failed
            )
        else:
            self.ops.run(
                lambda v: vault_calls.timeline_events(v, caller, domain=domain, entity=entity, subject=None),
                lambda e: self._show(asked, e),
                self._failed,
            )

    def _show(self, asked: int, events: list[dict[str, object]]) -> None:
        if asked != self._asked:
            return
        lanes = build_lanes(events)
        filtered = self.domain.currentData() or self.entity.text().strip() or self.project.text().strip()
        self.canvas.empty_text = (
            "Nothing matches these filters."
            if filtered
            else "No records yet: their validity and versions will show here."
        )
        self.canvas.set_lanes(lanes)
        if not lanes:
            self.summary.setText(self.canvas.empty_text)
            return
        versions = sum(1 for lane in lanes if lane.superseded)
        self.summary.setText(
            f"{len(lanes)} record versions ({versions} superseded). Click a bar or press Enter to open it; "
            "wheel or +/- zooms, Shift+wheel scrolls."
        )

    def _failed(self, error: MemvaultError) -> None:
        self.canvas.empty_text = f"Could not show the timeline: {error.message}"
        self.canvas.set_lanes([])
        self.summary.setText(self.canvas.empty_text)

    def _zoom_chosen(self, name: str) -> None:
        per_day = ZOOMS.get(name, 0.0)
        if per_day:
            self.canvas.set_zoom(per_day)
        else:
            self.canvas.fit()
            self.canvas.viewport().update()
