"""The Graph view: records, entities and projects as nodes, typed links as coloured edges.

The Vault is read through `Operations`; the force layout (graph_layout.py) then runs on a
thread of its own, so neither the window nor other views' Vault calls wait for it. Records with
no link at all are left out of the picture unless asked for ("Show unlinked records"), and then
set in a block beside it rather than flung into a ring around it. Clicking a node highlights its
neighbourhood; double-clicking a record, or Enter, opens it. The canvas is graph_canvas.py.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from memvault.core.vocabulary.errors import MemvaultError
from memvault.desktop.gui.models import vault_calls
from memvault.desktop.gui.models.vault_calls import GraphData
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.windows.graph_canvas import LINK_COLOURS, GraphCanvas
from memvault.desktop.gui.windows.view_refresh import ShownRefresher

if TYPE_CHECKING:
    from memvault.desktop.gui.graph_layout import Positions

__all__ = ["LINK_COLOURS", "GraphView", "Plan", "plan"]
ANY = "any"


@dataclass
class Plan:
    """What is drawn: the linked nodes (laid out by force) then, when shown, the unlinked records (a block)."""

    source: GraphData  # what the store answered
    drawn: GraphData
    linked: int  # the first `linked` nodes of `drawn` are laid out by force
    loose: list[str] = field(default_factory=list)  # record keys with no link at all


def plan(data: GraphData, *, show_unlinked: bool) -> Plan:
    joined = {key for start, end, _ in data.edges for key in (start, end)}
    loose = [key for key, kind in data.kinds.items() if kind == "record" and key not in joined]
    keys = [key for key in data.kinds if key not in set(loose)] + (loose if show_unlinked else [])
    drawn = GraphData(
        labels={key: data.labels[key] for key in keys},
        kinds={key: data.kinds[key] for key in keys},
        edges=list(data.edges),
        truncated=data.truncated,
    )
    return Plan(data, drawn, len(keys) - (len(loose) if show_unlinked else 0), loose)


def _positions(
    linked: int, loose: int, pairs: list[tuple[int, int]], known: dict[int, tuple[float, float]], stop: threading.Event
) -> Positions:
    """On the layout thread; numpy is imported here, so opening the app does not wait for it."""
    import numpy as np  # noqa: PLC0415 - numpy only once a graph is drawn

    from memvault.desktop.gui import graph_layout  # noqa: PLC0415

    placed = graph_layout.layout(linked, pairs, known=known, stop=stop)
    together: Positions = np.vstack((placed, graph_layout.grid_beside(placed, loose)))
    return together


class _LayoutDone(QObject):
    ready = Signal(int, object, object)  # generation, Plan, positions (crosses from the layout thread)


def _deliver(done: _LayoutDone, stop: threading.Event, generation: int, laid: Plan, future: Future[Positions]) -> None:
    if stop.is_set() or future.cancelled() or future.exception() is not None:
        return
    try:
        done.ready.emit(generation, laid, future.result())
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


class _Finder(QLineEdit):
    """The find box: Up and Down step through the nodes that match."""

    step = Signal(int)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up):
            self.step.emit(1 if event.key() == Qt.Key.Key_Down else -1)
        else:
            super().keyPressEvent(event)


class GraphView(QWidget):
    """Emits `record_opened(memory_id)` when a record node is double-clicked or chosen with Enter."""

    record_opened = Signal(str)

    def __init__(self, ops: Operations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.centre: str | None = None
        self.data: GraphData | None = None  # what the store answered
        self.plan: Plan | None = None  # what is drawn of it
        self._generation = 0
        self._found = -1
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
        self.finder = _Finder()
        self.finder.setPlaceholderText("Find a node: ↑↓ next match, Enter opens it")
        self.finder.setAccessibleName("Find a node")
        self.unlinked = QCheckBox("Show &unlinked records")
        self.unlinked.setToolTip("Records with no link to anything, in a block beside the graph")
        self.around = QPushButton("&Centre on selected")
        self.around.setToolTip("Draw the selected record's neighbourhood, up to the chosen depth")
        self.whole = QPushButton("&Whole store")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("Graph summary")
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
        legend = QHBoxLayout()
        legend.addWidget(_legend(), 1)
        legend.addWidget(self.unlinked, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(legend)
        layout.addWidget(self.summary)
        layout.addWidget(self.canvas, 1)
        self.domain.currentIndexChanged.connect(self._domain_chosen)
        self.depth_box.valueChanged.connect(self.refresh)
        self.limit.editingFinished.connect(self.refresh)
        self.unlinked.toggled.connect(self._replan)
        self.finder.textChanged.connect(lambda _text: self._find(0))
        self.finder.step.connect(self._find)
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

    def _replan(self) -> None:
        if self.data is not None:
            self._generation += 1
            self._lay_out(self._generation, self.data)

    def _lay_out(self, generation: int, data: GraphData) -> None:
        if generation != self._generation or self._stop.is_set():
            return
        laid = plan(data, show_unlinked=self.unlinked.isChecked())
        index = {key: i for i, key in enumerate(laid.drawn.kinds)}
        pairs = [(index[a], index[b]) for a, b, _ in laid.drawn.edges]
        known = {
            index[key]: (node.pos().x(), node.pos().y())
            for key, node in self.canvas.nodes.items()
            if key in index and index[key] < laid.linked
        }
        loose = len(index) - laid.linked
        future = self._pool.submit(_positions, laid.linked, loose, pairs, known, self._stop)
        # The callback runs on the layout thread: it holds the relay and the stop flag, never the view
        # (a view whose last reference dropped there would be destroyed on the wrong thread).
        done, stop = self._done, self._stop
        future.add_done_callback(lambda f: _deliver(done, stop, generation, laid, f))

    def shutdown(self) -> None:
        """Stop the layout thread (the app is quitting): no answer crosses to this view afterwards."""
        self._stop.set()
        self._pool.shutdown(wait=True, cancel_futures=True)

    @Slot(int, object, object)
    def _laid_out(self, generation: int, laid: Plan, positions: Positions) -> None:
        if generation != self._generation:
            return
        self.plan, self.data = laid, laid.source
        self.canvas.show_graph(laid.drawn, positions)
        self.summary.setText(self._summary_text(laid.source, laid))

    def _summary_text(self, data: GraphData, laid: Plan) -> str:
        if not data.kinds:
            return (
                "Nothing to draw yet: records appear here once memvault holds some, joined to the people, "
                "places and projects they mention and to each other by their links."
            )
        records = sum(1 for kind in laid.drawn.kinds.values() if kind == "record")
        where = f"around {self.centre}, depth {self.depth_box.value()}" if self.centre else "newest current records"
        more = " (more exist: raise the record limit)" if data.truncated else ""
        loose = ""
        if laid.loose:
            state = "shown in the block on the right" if self.unlinked.isChecked() else "hidden"
            loose = f" {len(laid.loose)} records without links are {state}."
        return (
            f"{records} records, {len(laid.drawn.kinds) - records} entities and projects, {len(data.edges)} links; "
            f"{where}{more}.{loose} Hover a node for its label, click one to highlight its neighbours, "
            "double-click a record (or Enter) to open it; drag to pan, wheel or +/- to zoom."
        )

    def _failed(self, error: MemvaultError) -> None:
        self.summary.setText(f"Could not draw the graph: {error.message}")

    def _domain_chosen(self) -> None:
        self.centre = None
        self.refresh()

    # -- choosing nodes ------------------------------------------------------------------------
    def _find(self, step: int) -> None:
        """Select the next node (`step` 1, or -1 back) whose label holds the find box's words; 0: the first."""
        wanted = self.finder.text().strip().casefold()
        matches = [key for key, node in self.canvas.nodes.items() if wanted and wanted in node.toolTip().casefold()]
        if not matches:
            self._found = -1
            return
        self._found = 0 if step == 0 else (self._found + step) % len(matches)
        self.select_node(matches[self._found])

    def select_node(self, key: str) -> None:
        """Select a node as a click would: its neighbourhood highlighted, the view centred on it."""
        self.canvas.select(key)
        if key in self.canvas.nodes:
            self.canvas.centerOn(self.canvas.nodes[key])

    def busiest_record(self) -> str | None:
        """The record with the most neighbours drawn (for a picture that shows what a neighbourhood is)."""
        records = [key for key in self.canvas.nodes if key.startswith("m:")]
        return max(records, key=lambda k: len(self.canvas.neighbours.get(k, ())), default=None)

    def _open_found(self) -> None:
        if self.canvas.selected:
            self._activated(self.canvas.selected)

    def _centre_on_selected(self) -> None:
        key = self.canvas.selected
        if key and key.startswith("m:"):
            self.show_around(key[2:])

    def _activated(self, key: str) -> None:
        if key.startswith("m:"):
            self.record_opened.emit(key[2:])
