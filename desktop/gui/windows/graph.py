"""The Graph view: records, entities and projects as nodes, typed links as coloured edges.

The Vault is read through `Operations`; the force layout (graph_layout.py) then runs on a
thread of its own, so neither the window nor other views' Vault calls wait for it. The scene
holds one cached item per node and one path per link type: panning repaints, never relays out.
Nothing is drawn per frame but what moved into view.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPointF, Qt, Signal, Slot
from PySide6.QtGui import (
    QColor,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QAbstractGraphicsShapeItem,
    QComboBox,
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsItemGroup,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.model import LinkType
from memvault.desktop.gui.models import vault_calls
from memvault.desktop.gui.models.vault_calls import GraphData
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.windows.view_refresh import ShownRefresher

if TYPE_CHECKING:
    from memvault.desktop.gui.graph_layout import Positions

# The one place colours are fixed: a colour per link type, readable on light and dark palettes.
LINK_COLOURS = {
    LinkType.DEPENDS_ON.value: "#3b82f6",
    LinkType.CONTRADICTS.value: "#e5484d",
    LinkType.SUPERSEDES.value: "#8b8d98",
    LinkType.PART_OF_PROJECT.value: "#30a46c",
    LinkType.FAILED_FOR.value: "#f76b15",
    LinkType.RELATES_TO.value: "#8e4ec6",
    LinkType.MENTIONS.value: "#a18072",
}
RADIUS = {"record": 7.0, "entity": 5.0, "project": 10.0}
FILL = {"record": QPalette.ColorRole.Highlight, "entity": QPalette.ColorRole.Button, "project": QPalette.ColorRole.Link}
# Labels appear from these zooms on: names of entities and projects early, record statements late
# (they are long and records crowd), so a zoomed-out view paints few glyphs and stays legible.
LABEL_ZOOM = {"record": 1.6, "entity": 0.6, "project": 0.4}
LABEL_CHARS = 36
SMOOTH_ZOOM = 1.0  # antialiasing from this zoom on
ANY = "any"


KEY = 0  # item data: the node's key ("m:<id>", "e:<name>", "p:<name>")
NodeItem = QAbstractGraphicsShapeItem


def _node(key: str, kind: str, label: str, palette: QPalette) -> NodeItem:
    """A node drawn by Qt itself (no Python per paint): records circles, entities and projects squares."""
    r = RADIUS[kind]
    item: NodeItem = (
        QGraphicsEllipseItem(-r, -r, 2 * r, 2 * r) if kind == "record" else QGraphicsRectItem(-r, -r, 2 * r, 2 * r)
    )
    item.setBrush(palette.color(FILL[kind]))
    item.setPen(QPen(palette.color(QPalette.ColorRole.Text), 1.0))
    item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
    item.setToolTip(label)
    item.setData(KEY, key)
    item.setZValue(1)
    return item


def node_key(item: QGraphicsItem | None) -> str | None:
    key = item.data(KEY) if item is not None else None
    return key if isinstance(key, str) else None


def _label(node: NodeItem, label: str, palette: QPalette) -> QGraphicsSimpleTextItem:
    text = label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"
    item = QGraphicsSimpleTextItem(text)
    item.setBrush(palette.color(QPalette.ColorRole.Text))
    r = node.boundingRect().width() / 2
    item.setPos(node.pos() + QPointF(r + 2, -item.boundingRect().height() / 2))
    return item


def _group(scene: QGraphicsScene, items: list[QGraphicsItem]) -> QGraphicsItemGroup:
    """A group made here, not by `scene.createItemGroup`: PySide6 hears when a group it made dies, but a
    group Qt made keeps a live-looking wrapper after `clear()` or the scene's end, and the address, once
    reused, came back as that wrapper (a viewport returned as a QGraphicsItemGroup; segfaults)."""
    group = QGraphicsItemGroup()
    for item in items:
        group.addToGroup(item)
    scene.addItem(group)
    return group


class GraphCanvas(QGraphicsView):
    node_activated = Signal(str)  # a node key, clicked or chosen with Enter

    def __init__(self) -> None:
        super().__init__()
        self.setScene(QGraphicsScene(self))
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self.setAccessibleName("Graph of records, entities and projects")
        self.nodes: dict[str, NodeItem] = {}
        self.labels: dict[str, QGraphicsItemGroup] = {}  # per kind, shown from their zoom on

    def wheelEvent(self, event: QWheelEvent) -> None:
        self.zoom(1.25 if event.angleDelta().y() > 0 else 0.8)

    def zoom(self, factor: float) -> None:
        scale = self.transform().m11() * factor
        if 0.02 <= scale <= 8:
            self.scale(factor, factor)
            self._zoomed()

    def _zoomed(self) -> None:
        """Labels and antialiasing by zoom: zoomed out, thousands of tiny shapes paint twice as fast without it."""
        scale = self.transform().m11()
        for kind, group in self.labels.items():
            group.setVisible(scale >= LABEL_ZOOM[kind])
        self.setRenderHint(QPainter.RenderHint.Antialiasing, scale >= SMOOTH_ZOOM)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(1.25)
        elif key == Qt.Key.Key_Minus:
            self.zoom(0.8)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.scene().selectedItems():
            chosen = node_key(self.scene().selectedItems()[0])
            if chosen:
                self.node_activated.emit(chosen)
        else:
            super().keyPressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        under = [i for i in self.items(event.position().toPoint()) if node_key(i)]  # below the label layers
        moved = (event.position() - self._pressed_at).manhattanLength() > 4
        super().mouseReleaseEvent(event)
        item = under[0] if under else None
        key = node_key(item)
        if item is not None and key and not moved:
            self.scene().clearSelection()
            item.setSelected(True)
            self.node_activated.emit(key)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._pressed_at = event.position()
        super().mousePressEvent(event)

    def show_graph(self, data: GraphData, positions: Positions) -> None:
        """Draw a laid-out graph; a re-layout of mostly the same nodes keeps the person's zoom and place."""
        scene = self.scene()
        same = sum(1 for key in data.kinds if key in self.nodes) >= 0.8 * max(1, len(data.kinds))
        transform, centre = self.transform(), self.mapToScene(self.viewport().rect().center())
        self.nodes, self.labels = {}, {}  # let go of the items' wrappers while the items still exist
        scene.clear()
        palette = self.palette()
        self.nodes = {}
        labels: dict[str, list[QGraphicsItem]] = {kind: [] for kind in LABEL_ZOOM}
        for key, (x, y) in zip(list(data.kinds), positions, strict=True):
            node = _node(key, data.kinds[key], data.labels[key], palette)
            node.setPos(float(x), float(y))
            scene.addItem(node)
            labels[data.kinds[key]].append(_label(node, data.labels[key], palette))
            self.nodes[key] = node
        self.labels = {kind: _group(scene, items) for kind, items in labels.items()}
        for group in self.labels.values():
            group.setZValue(2)
            group.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        for link_type, path in self._edge_paths(data).items():
            item = QGraphicsPathItem(path)
            pen = QPen(QColor(LINK_COLOURS.get(link_type, "#8b8d98")), 1.0)
            pen.setCosmetic(True)
            item.setPen(pen)
            item.setZValue(0)
            scene.addItem(item)
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-40, -40, 40, 40))
        if same:
            self.setTransform(transform)
            self.centerOn(centre)
        else:
            self.fitInView(scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        self._zoomed()

    def _edge_paths(self, data: GraphData) -> dict[str, QPainterPath]:
        paths: dict[str, QPainterPath] = {}
        for start, end, link_type in data.edges:
            path = paths.setdefault(link_type, QPainterPath())
            path.moveTo(self.nodes[start].pos())
            path.lineTo(self.nodes[end].pos())
        return paths


def _positions(
    n: int, pairs: list[tuple[int, int]], known: dict[int, tuple[float, float]], stop: threading.Event
) -> Positions:
    """On the layout thread; numpy is imported here, so opening the app does not wait for it."""
    from memvault.desktop.gui import graph_layout  # noqa: PLC0415 - numpy only once a graph is drawn

    return graph_layout.layout(n, pairs, known=known, stop=stop)


class _LayoutDone(QObject):
    ready = Signal(int, object, object)  # generation, GraphData, positions (crosses from the layout thread)


def _deliver(
    done: _LayoutDone, stop: threading.Event, generation: int, data: GraphData, future: Future[Positions]
) -> None:
    if stop.is_set() or future.cancelled() or future.exception() is not None:
        return
    try:
        done.ready.emit(generation, data, future.result())
    except RuntimeError:  # the view (the relay's parent) was deleted while the layout ran
        return


def _legend() -> QLabel:
    swatches = " ".join(
        f'<span style="color:{colour}">━━</span>&nbsp;{name.replace("_", " ")}' for name, colour in LINK_COLOURS.items()
    )
    label = QLabel(f"{swatches}<br>● record &nbsp; □ entity (small) &nbsp; ■ project (large)")
    label.setWordWrap(True)
    label.setAccessibleName("Legend: a colour per link type")
    return label


class GraphView(QWidget):
    """Emits `record_opened(memory_id)` when a record node is clicked or chosen with Enter."""

    record_opened = Signal(str)

    def __init__(self, ops: Operations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.centre: str | None = None
        self.data: GraphData | None = None
        self._generation = 0
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memvault-graph-layout")
        self._stop = threading.Event()  # set by `shutdown`: a running layout ends at its next step
        self._done = _LayoutDone(self)
        self._done.ready.connect(self._laid_out)
        self._build()
        self._refresher = ShownRefresher(self, self.refresh)
        ops.changed.connect(self._refresher.changed)

    def _build(self) -> None:
        self.domain = QComboBox()
        self.domain.setAccessibleName("Domain")
        self.domain.addItem(ANY, None)
        self.depth_box = QSpinBox()
        self.depth_box.setRange(1, 3)
        self.depth_box.setAccessibleName("Depth around the centre record")
        self.limit = QSpinBox()
        self.limit.setRange(50, 2000)
        self.limit.setSingleStep(50)
        self.limit.setValue(500)
        self.limit.setAccessibleName("Most records drawn")
        self.finder = QLineEdit()
        self.finder.setPlaceholderText("Find a node (Enter opens it)")
        self.finder.setAccessibleName("Find a node")
        self.around = QPushButton("&Centre on selected")
        self.around.setToolTip("Draw the selected record's neighbourhood, up to the chosen depth")
        self.whole = QPushButton("&Whole store")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.canvas = GraphCanvas()
        self.canvas.node_activated.connect(self._activated)
        bar = QHBoxLayout()
        for text, widget in (("&Domain", self.domain), ("De&pth", self.depth_box), ("&Records", self.limit)):
            label = QLabel(text)
            label.setBuddy(widget)
            bar.addWidget(label)
            bar.addWidget(widget)
        bar.addWidget(self.finder, 1)
        bar.addWidget(self.around)
        bar.addWidget(self.whole)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(_legend())
        layout.addWidget(self.summary)
        layout.addWidget(self.canvas, 1)
        self.domain.currentIndexChanged.connect(self._domain_chosen)
        self.depth_box.valueChanged.connect(self.refresh)
        self.limit.editingFinished.connect(self.refresh)
        self.finder.textChanged.connect(self._find)
        self.finder.returnPressed.connect(self._open_found)
        self.around.clicked.connect(self._centre_on_selected)
        self.whole.clicked.connect(lambda: self.show_around(None))
        self.ops.run(lambda v: vault_calls.domain_names(v, self.ops.caller), self._set_domains, lambda _e: None)

    def _set_domains(self, names: list[str]) -> None:
        for name in names:
            self.domain.addItem(name, name)

    # -- loading -------------------------------------------------------------------------------
    def show_around(self, memory_id: str | None) -> None:
        """Centre the graph on one record (its neighbourhood up to the chosen depth); None: the whole store."""
        self.centre = memory_id
        self.refresh()

    @Slot()
    def refresh(self) -> None:
        self._generation += 1
        generation, centre, depth = self._generation, self.centre, self.depth_box.value()
        domain, limit = self.domain.currentData(), self.limit.value()
        self.summary.setText("Loading the graph…")
        self.ops.run(
            lambda v: vault_calls.graph_data(
                v, self.ops.caller, centre=centre, depth=depth, domain=domain, limit=limit
            ),
            lambda data: self._lay_out(generation, data),
            self._failed,
        )

    def _lay_out(self, generation: int, data: GraphData) -> None:
        if generation != self._generation:
            return
        index = {key: i for i, key in enumerate(data.kinds)}
        pairs = [(index[a], index[b]) for a, b, _ in data.edges]
        known = {
            index[key]: (node.pos().x(), node.pos().y()) for key, node in self.canvas.nodes.items() if key in index
        }
        if self._stop.is_set():
            return
        future = self._pool.submit(_positions, len(index), pairs, known, self._stop)
        # The callback runs on the layout thread: it holds the relay and the stop flag, never the view
        # (a view whose last reference dropped there would be destroyed on the wrong thread).
        done, stop = self._done, self._stop
        future.add_done_callback(lambda f: _deliver(done, stop, generation, data, f))

    def shutdown(self) -> None:
        """Stop the layout thread (the app is quitting): no answer crosses to this view afterwards."""
        self._stop.set()
        self._pool.shutdown(wait=True, cancel_futures=True)

    @Slot(int, object, object)
    def _laid_out(self, generation: int, data: GraphData, positions: Positions) -> None:
        if generation != self._generation:
            return
        self.data = data
        self.canvas.show_graph(data, positions)
        self.summary.setText(self._summary_text(data))

    def _summary_text(self, data: GraphData) -> str:
        if not data.kinds:
            return "Nothing to draw yet: records and the links between them appear here once memvault holds some."
        records = sum(1 for kind in data.kinds.values() if kind == "record")
        where = f"around {self.centre}, depth {self.depth_box.value()}" if self.centre else "newest current records"
        more = " (more exist: raise the record limit)" if data.truncated else ""
        return (
            f"{records} records, {len(data.kinds) - records} entities and projects, {len(data.edges)} links; "
            f"{where}{more}. Drag to pan, wheel or +/- to zoom, click a record to open it."
        )

    def _failed(self, error: MemvaultError) -> None:
        self.summary.setText(f"Could not draw the graph: {error.message}")

    def _domain_chosen(self) -> None:
        self.centre = None
        self.refresh()

    # -- choosing nodes ------------------------------------------------------------------------
    def _find(self, text: str) -> None:
        wanted = text.strip().casefold()
        if not wanted:
            return
        for node in self.canvas.nodes.values():
            if wanted in node.toolTip().casefold():
                self.canvas.scene().clearSelection()
                node.setSelected(True)
                self.canvas.centerOn(node)
                return

    def _selected_key(self) -> str | None:
        keys = [node_key(item) for item in self.canvas.scene().selectedItems()]
        return next((key for key in keys if key), None)

    def _open_found(self) -> None:
        key = self._selected_key()
        if key:
            self._activated(key)

    def _centre_on_selected(self) -> None:
        key = self._selected_key()
        if key and key.startswith("m:"):
            self.show_around(key[2:])

    def _activated(self, key: str) -> None:
        if key.startswith("m:"):
            self.record_opened.emit(key[2:])
