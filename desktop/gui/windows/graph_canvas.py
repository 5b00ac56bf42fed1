"""The graph's canvas: nodes, typed edges, labels, and the selected node's neighbourhood.

The scene holds one cached item per node and one path per link type: panning repaints, never
relays out. Labels keep their size at any zoom (they ignore the view's scale): names of entities
and projects show early, record statements once zoomed in (they are long and records crowd), the
label of the node under the mouse always, and the labels of a selected node and its neighbours,
whose edges are drawn bold while everything else fades.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QAbstractGraphicsShapeItem,
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsItemGroup,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
)

from memvault.core.vocabulary.model import LinkType
from memvault.desktop.gui.models.vault_calls import GraphData

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
FILL = {"record": QPalette.ColorRole.Highlight, "entity": QPalette.ColorRole.Button}
PROJECT_FILL = LinkType.PART_OF_PROJECT  # projects wear the colour of the links that join records to them
# Labels appear from these zooms on: names of entities and projects early, record statements late
# (they are long and records crowd), so a zoomed-out view paints few glyphs and stays legible.
LABEL_ZOOM = {"record": 1.6, "entity": 0.6, "project": 0.4}
LABEL_CHARS = 36
HOOD_CHARS = 60  # a selected neighbourhood's labels: few, so longer
HOVER_CHARS = 90  # the label under the mouse says more
SMOOTH_ZOOM = 1.0  # antialiasing from this zoom on
FADED = 0.3  # the opacity of what lies outside a selected node's neighbourhood
KIND_ORDER = ("project", "entity", "record")  # whose labels win when two would overlap

KEY = 0  # item data: the node's key ("m:<id>", "e:<name>", "p:<name>")
NodeItem = QAbstractGraphicsShapeItem


def _node(key: str, kind: str, label: str, palette: QPalette) -> NodeItem:
    """A node drawn by Qt itself (no Python per paint): records circles, entities and projects squares."""
    r = RADIUS[kind]
    item: NodeItem = (
        QGraphicsEllipseItem(-r, -r, 2 * r, 2 * r) if kind == "record" else QGraphicsRectItem(-r, -r, 2 * r, 2 * r)
    )
    _paint_node(item, kind, palette)
    item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
    item.setToolTip(label)
    item.setData(KEY, key)
    item.setZValue(1)
    return item


def _paint_node(item: NodeItem, kind: str, palette: QPalette) -> None:
    fill = QColor(LINK_COLOURS[PROJECT_FILL.value]) if kind == "project" else palette.color(FILL[kind])
    item.setBrush(fill)
    item.setPen(QPen(palette.color(QPalette.ColorRole.Text), 1.0))


def node_key(item: QGraphicsItem | None) -> str | None:
    key = item.data(KEY) if item is not None else None
    return key if isinstance(key, str) else None


def shortened(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _label(node: NodeItem, text: str, palette: QPalette, *, boxed: bool = False, framed: bool = False) -> QGraphicsItem:
    """A label right of `node`, at the font's size whatever the zoom; `boxed`: on a panel of the base colour
    (nearly opaque: lines and nodes behind it do not cross the words), `framed`: with an edge too."""
    words = QGraphicsSimpleTextItem(text)
    words.setBrush(palette.color(QPalette.ColorRole.Text))
    height = words.boundingRect().height()
    holder: QGraphicsItem
    if boxed:
        panel = QGraphicsRectItem(words.boundingRect().adjusted(-3, -1, 3, 1).translated(0, -height / 2))
        backdrop = palette.color(QPalette.ColorRole.Base)
        backdrop.setAlpha(255 if framed else 215)
        panel.setBrush(backdrop)
        panel.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1.0) if framed else QPen(Qt.PenStyle.NoPen))
        words.setParentItem(panel)
        words.setPos(0, -height / 2)
        holder = panel
    else:
        words.setTransform(QTransform.fromTranslate(0, -height / 2))  # centred on the node, in pixels
        holder = words
    holder.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
    holder.setPos(node.pos() + QPointF(node.boundingRect().width() / 2 + 2, 0))
    holder.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
    holder.setAcceptHoverEvents(False)
    return holder


def _group(scene: QGraphicsScene, items: list[QGraphicsItem]) -> QGraphicsItemGroup:
    """A group made here, not by `scene.createItemGroup`: PySide6 hears when a group it made dies, but a
    group Qt made keeps a live-looking wrapper after `clear()` or the scene's end, and the address, once
    reused, came back as that wrapper (a viewport returned as a QGraphicsItemGroup; segfaults)."""
    group = QGraphicsItemGroup()
    for item in items:
        group.addToGroup(item)
    scene.addItem(group)
    return group


def declutter(view: QGraphicsView, labels: list[QGraphicsItem]) -> None:
    """Show each label that does not cover one shown before it (`labels` in order of importance); hide the rest.

    Labels keep their size on screen, so whether two overlap depends on the zoom: call again after zooming.
    """
    cell = 96
    taken: dict[tuple[int, int], list[QRectF]] = {}
    for label in labels:
        corner = view.mapFromScene(label.scenePos())
        box = label.transform().mapRect(label.boundingRect())  # in pixels: the label ignores the view's scale
        rect = QRectF(corner.x() + box.x(), corner.y() + box.y(), box.width(), box.height())
        cells = [
            (x, y)
            for x in range(int(rect.left()) // cell, int(rect.right()) // cell + 1)
            for y in range(int(rect.top()) // cell, int(rect.bottom()) // cell + 1)
        ]
        free = not any(rect.intersects(other) for place in cells for other in taken.get(place, ()))
        label.setVisible(free)
        if free:
            for place in cells:
                taken.setdefault(place, []).append(rect)


def _pen(link_type: str, width: float) -> QPen:
    pen = QPen(QColor(LINK_COLOURS.get(link_type, "#8b8d98")), width)
    pen.setCosmetic(True)
    return pen


class GraphCanvas(QGraphicsView):
    node_activated = Signal(str)  # a node key, double-clicked or chosen with Enter
    node_selected = Signal(str)  # a node key, clicked (its neighbourhood is highlighted)

    def __init__(self) -> None:
        super().__init__()
        self.setScene(QGraphicsScene(self))
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName("Graph of records, entities and projects")
        self.nodes: dict[str, NodeItem] = {}
        self.labels: dict[str, QGraphicsItemGroup] = {}  # per kind, shown from their zoom on
        self.label_of: dict[str, QGraphicsItem] = {}  # each node's label in those groups
        self.kind_of: dict[str, str] = {}
        self.neighbours: dict[str, set[str]] = {}
        self.edges: list[tuple[str, str, str]] = []
        self.paths: list[QGraphicsPathItem] = []
        self.hovered: str | None = None
        self.hover_label: QGraphicsItem | None = None
        self.selected: str | None = None
        self.highlighted: set[str] = set()  # the selected node and its neighbours
        self._hood: list[QGraphicsItem] = []  # the neighbourhood's bold edges and labels
        self._hood_labels: list[QGraphicsItem] = []
        self._neighbour_at = -1  # N / P step through the selected node's neighbours
        self._pressed_at = QPointF()

    # -- zoom ----------------------------------------------------------------------------------
    def wheelEvent(self, event: QWheelEvent) -> None:
        self.zoom(1.25 if event.angleDelta().y() > 0 else 0.8)

    def zoom(self, factor: float) -> None:
        scale = self.transform().m11() * factor
        if 0.02 <= scale <= 8:
            self.scale(factor, factor)
            self._zoomed()

    def _zoomed(self) -> None:
        """Labels and antialiasing by zoom: zoomed out, thousands of tiny shapes paint twice as fast without it.
        Of the labels the zoom allows, those that would cover another are left out (the mouse shows them)."""
        scale = self.transform().m11()
        for kind, group in self.labels.items():
            group.setVisible(scale >= LABEL_ZOOM[kind])
        self.setRenderHint(QPainter.RenderHint.Antialiasing, scale >= SMOOTH_ZOOM)
        rank = {kind: i for i, kind in enumerate(KIND_ORDER)}
        shown = sorted(
            (key for key in self.label_of if scale >= LABEL_ZOOM[self.kind_of[key]] and key not in self.highlighted),
            key=lambda key: (rank[self.kind_of[key]], -len(self.neighbours.get(key, ()))),
        )
        for key in self.highlighted:  # the neighbourhood's own labels stand for these
            self.label_of[key].setVisible(False)
        # The neighbourhood's labels first: the faded labels around them give way.
        declutter(self, [*self._hood_labels, *(self.label_of[key] for key in shown)])

    def changeEvent(self, event: QEvent) -> None:
        """A new palette (the system went dark or light): nodes and labels take its colours."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange) and self.nodes:
            palette = self.palette()
            for key, node in self.nodes.items():
                _paint_node(node, self.kind_of[key], palette)
            for label in self.label_of.values():
                if isinstance(label, QGraphicsSimpleTextItem):
                    label.setBrush(palette.color(QPalette.ColorRole.Text))
            self.hover(None)
            self.select(self.selected)  # the neighbourhood's labels, drawn again

    # -- keys and the mouse --------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(1.25)
        elif key == Qt.Key.Key_Minus:
            self.zoom(0.8)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.selected:
            self.node_activated.emit(self.selected)
        elif key == Qt.Key.Key_Escape and self.selected:
            self.select(None)
        elif key in (Qt.Key.Key_N, Qt.Key.Key_P) and self.selected:  # next / previous neighbour
            self._step_neighbour(1 if key == Qt.Key.Key_N else -1)
        else:
            super().keyPressEvent(event)

    def _step_neighbour(self, step: int) -> None:
        around = sorted(self.neighbours.get(self.selected or "", set()))
        if around:
            self._neighbour_at = (self._neighbour_at + step) % len(around)
            self.hover(around[self._neighbour_at])
            self.centerOn(self.nodes[around[self._neighbour_at]])

    def _node_at(self, event: QMouseEvent) -> str | None:
        under = [i for i in self.items(event.position().toPoint()) if node_key(i)]  # below the label layers
        return node_key(under[0]) if under else None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._pressed_at = event.position()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        if not event.buttons():
            self.hover(self._node_at(event))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        key = self._node_at(event)
        moved = (event.position() - self._pressed_at).manhattanLength() > 4
        super().mouseReleaseEvent(event)
        if not moved and event.button() == Qt.MouseButton.LeftButton:
            self.select(key)
            if key:
                self.node_selected.emit(key)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        key = self._node_at(event)
        if key:
            self.select(key)
            self.node_activated.emit(key)
        else:
            super().mouseDoubleClickEvent(event)

    # -- hover, selection, neighbourhood -------------------------------------------------------
    def hover(self, key: str | None) -> None:
        """Show the label of the node `key` (None: no hover label)."""
        if key == self.hovered:
            return
        if self.hover_label is not None:
            self.scene().removeItem(self.hover_label)
            self.hover_label = None
        self.hovered = key
        if key is not None and key in self.nodes:
            node = self.nodes[key]
            self.hover_label = _label(
                node, shortened(node.toolTip(), HOVER_CHARS), self.palette(), boxed=True, framed=True
            )
            self.hover_label.setZValue(4)
            self.scene().addItem(self.hover_label)

    def select(self, key: str | None) -> None:
        """Select a node: it and its neighbours stay bright, labelled, their edges bold; the rest fades."""
        scene = self.scene()
        for item in self._hood:
            scene.removeItem(item)
        self._hood, self._hood_labels = [], []
        scene.clearSelection()
        self.selected = key if key in self.nodes else None
        self.highlighted = {self.selected, *self.neighbours.get(self.selected, set())} if self.selected else set()
        faded = FADED if self.selected else 1.0
        for name, node in self.nodes.items():
            node.setOpacity(1.0 if name in self.highlighted else faded)
        for path in self.paths:
            path.setOpacity(faded)
        for group in self.labels.values():
            group.setOpacity(faded)
        if self.selected is None:
            self._zoomed()  # every label back as the zoom allows
            return
        self.nodes[self.selected].setSelected(True)
        self._neighbour_at = -1
        self._draw_hood(self.selected)

    def _draw_hood(self, centre: str) -> None:
        scene, palette = self.scene(), self.palette()
        paths: dict[str, QPainterPath] = {}
        for start, end, link_type in self.edges:
            if centre in (start, end):
                path = paths.setdefault(link_type, QPainterPath())
                path.moveTo(self.nodes[start].pos())
                path.lineTo(self.nodes[end].pos())
        for link_type, path in paths.items():
            bold = QGraphicsPathItem(path)
            bold.setPen(_pen(link_type, 2.5))
            bold.setZValue(0.5)
            self._hood.append(bold)
        self._hood_labels = []
        around = sorted(self.highlighted - {centre}, key=lambda k: KIND_ORDER.index(self.kind_of.get(k, "record")))
        for name in (centre, *around):
            node = self.nodes[name]
            label = _label(node, shortened(node.toolTip(), HOOD_CHARS), palette, boxed=True, framed=name == centre)
            label.setZValue(3)
            self._hood.append(label)
            self._hood_labels.append(label)
        for item in self._hood:
            scene.addItem(item)
        self._zoomed()  # the neighbourhood's labels that fit (the centre's first); N and P, or the mouse, the rest

    def frame_neighbourhood(self, most: float = 2.0) -> None:
        """Zoom so the selected node and its neighbours fill the view (no closer than `most`)."""
        if not self.selected:
            return
        area = QRectF()
        for name in self.highlighted:
            area = area.united(self.nodes[name].sceneBoundingRect())
        self.fitInView(area.adjusted(-60, -40, 220, 40), Qt.AspectRatioMode.KeepAspectRatio)
        if self.transform().m11() > most:
            self.setTransform(QTransform.fromScale(most, most))
            self.centerOn(area.center())
        self._zoomed()

    # -- drawing -------------------------------------------------------------------------------
    def show_graph(self, data: GraphData, positions: Positions) -> None:
        """Draw a laid-out graph; a re-layout of mostly the same nodes keeps the person's zoom and place."""
        scene = self.scene()
        same = sum(1 for key in data.kinds if key in self.nodes) >= 0.8 * max(1, len(data.kinds))
        transform, centre = self.transform(), self.mapToScene(self.viewport().rect().center())
        kept = self.selected
        self.nodes, self.labels, self.paths, self._hood = {}, {}, [], []  # let go of wrappers while items exist
        self.label_of, self.kind_of, self._hood_labels = {}, {}, []
        self.hover_label, self.hovered, self.selected = None, None, None
        scene.clear()
        palette = self.palette()
        labels: dict[str, list[QGraphicsItem]] = {kind: [] for kind in LABEL_ZOOM}
        for key, (x, y) in zip(list(data.kinds), positions, strict=True):
            node = _node(key, data.kinds[key], data.labels[key], palette)
            node.setPos(float(x), float(y))
            scene.addItem(node)
            label = _label(node, shortened(data.labels[key], LABEL_CHARS), palette)
            labels[data.kinds[key]].append(label)
            self.nodes[key], self.label_of[key], self.kind_of[key] = node, label, data.kinds[key]
        self.labels = {kind: _group(scene, items) for kind, items in labels.items()}
        for group in self.labels.values():
            group.setZValue(2)
            group.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.edges = list(data.edges)
        self.neighbours = {}
        for start, end, _ in self.edges:
            self.neighbours.setdefault(start, set()).add(end)
            self.neighbours.setdefault(end, set()).add(start)
        for link_type, path in self._edge_paths(data).items():
            item = QGraphicsPathItem(path)
            item.setPen(_pen(link_type, 1.0))
            item.setZValue(0)
            scene.addItem(item)
            self.paths.append(item)
        area = QRectF()  # the nodes' extent (labels keep their size on screen: they would inflate it when zoomed out)
        for node in self.nodes.values():
            area = area.united(node.sceneBoundingRect())
        scene.setSceneRect(area.adjusted(-40, -40, 240, 40))
        if same:
            self.setTransform(transform)
            self.centerOn(centre)
        else:
            self.fitInView(scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        self._zoomed()
        self.select(kept)

    def _edge_paths(self, data: GraphData) -> dict[str, QPainterPath]:
        paths: dict[str, QPainterPath] = {}
        for start, end, link_type in data.edges:
            path = paths.setdefault(link_type, QPainterPath())
            path.moveTo(self.nodes[start].pos())
            path.lineTo(self.nodes[end].pos())
        return paths
