"""The Graph view and its layout: typed edges in a colour each, a click opens the record, 2,000 nodes lay out sanely."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsPathItem, QGraphicsRectItem
from pytestqt.qtbot import QtBot
from viewkit import add, running, shown

from memvault.core.operations.changes import ChangeKind
from memvault.core.vault import Vault
from memvault.desktop.gui import graph_layout
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.windows.graph import LINK_COLOURS, GraphView
from memvault.desktop.gui.windows.memories import MemoriesView


@pytest.fixture
def view(qtbot: QtBot, ops: Operations, ids: dict[str, str]) -> Iterator[GraphView]:
    """The graph on screen; its layout thread stops afterwards, as the app's window stops it on quitting."""
    graph = shown(qtbot, GraphView(ops), (1000, 700), lambda v: v.data is not None)
    yield graph
    graph.shutdown()


def test_nodes_and_typed_edges(view: GraphView, ids: dict[str, str]) -> None:
    assert view.data is not None
    nodes = set(view.canvas.nodes)
    assert {f"m:{i}" for i in ids.values()} | {"e:Ada Lindqvist", "e:garden shed", "p:Kitchen"} <= nodes
    project, entity = view.canvas.nodes["p:Kitchen"], view.canvas.nodes["e:garden shed"]
    assert isinstance(project, QGraphicsRectItem) and isinstance(entity, QGraphicsRectItem)
    assert project.rect().width() > entity.rect().width()  # projects are the large squares
    assert isinstance(view.canvas.nodes[f"m:{ids['kitchen']}"], QGraphicsEllipseItem)
    assert (f"m:{ids['budget']}", f"m:{ids['kitchen']}", "part_of_project") in view.data.edges
    assert (f"m:{ids['canoe']}", f"m:{ids['bicycle']}", "relates_to") in view.data.edges
    colours = {item.pen().color().name() for item in view.canvas.scene().items() if isinstance(item, QGraphicsPathItem)}
    assert {LINK_COLOURS["part_of_project"], LINK_COLOURS["relates_to"], LINK_COLOURS["mentions"]} <= colours
    assert "4 records" in view.summary.text()


def test_clicking_a_record_node_opens_it_in_memories(
    qtbot: QtBot, view: GraphView, ops: Operations, ids: dict[str, str]
) -> None:
    memories = MemoriesView(ops)
    qtbot.addWidget(memories)
    view.record_opened.connect(memories.open_record)
    node = view.canvas.nodes[f"m:{ids['canoe']}"]
    view.canvas.centerOn(node)
    point = view.canvas.mapFromScene(node.pos())
    with qtbot.waitSignal(view.record_opened) as opened:
        qtbot.mouseClick(view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert opened.args == [ids["canoe"]]
    qtbot.waitUntil(lambda: memories.detail.detail is not None)
    assert "canoe trip" in memories.detail.page.toPlainText()


def test_find_then_enter_opens_a_node_by_keyboard(qtbot: QtBot, view: GraphView, ids: dict[str, str]) -> None:
    qtbot.keyClicks(view.finder, "budget")
    with qtbot.waitSignal(view.record_opened) as opened:
        qtbot.keyClick(view.finder, Qt.Key.Key_Return)
    assert opened.args == [ids["budget"]]


def test_depth_around_a_centre(qtbot: QtBot, view: GraphView, ids: dict[str, str]) -> None:
    view.show_around(ids["bicycle"])
    qtbot.waitUntil(lambda: view.data is not None and f"m:{ids['kitchen']}" not in view.canvas.nodes)
    records = {k for k, kind in view.data.kinds.items() if kind == "record"}
    assert records == {f"m:{ids['bicycle']}", f"m:{ids['canoe']}"}
    qtbot.mouseClick(view.whole, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: f"m:{ids['kitchen']}" in view.canvas.nodes)


def test_an_empty_store_explains_itself(qtbot: QtBot, vault: Vault) -> None:
    with running(vault) as ops:
        shown = GraphView(ops)
        qtbot.addWidget(shown)
        assert shown.summary.text() == ""  # nothing loaded while hidden
        shown.show()
        qtbot.waitUntil(lambda: shown.data is not None)
        assert "Nothing to draw yet" in shown.summary.text()


def test_layout_of_2000_nodes_stays_spread_and_keeps_linked_nodes_near() -> None:
    rng = np.random.default_rng(3)
    n = 2000
    # Clusters of 20 densely linked nodes, a few links between clusters, some isolated nodes.
    inside = [(c * 20 + a, c * 20 + b) for c in range(95) for a, b in rng.integers(0, 20, size=(30, 2))]
    across = [tuple(pair) for pair in rng.integers(0, 1900, size=(150, 2))]
    edges = np.array(inside + across, dtype=np.int64)
    pos = graph_layout.layout(n, edges)
    assert pos.shape == (n, 2) and np.isfinite(pos).all()
    side = graph_layout.frame_side(n)
    assert np.abs(pos).max() <= side * 1.5  # no node flung far away
    dist = np.sqrt(((pos[:, None, :] - pos[None, :, :]) ** 2).sum(axis=2))
    np.fill_diagonal(dist, np.inf)
    nearest = dist.min(axis=1)
    assert (nearest < graph_layout.SPACING * 0.2).mean() < 0.05  # few nodes drawn on top of another
    assert np.median(nearest) > graph_layout.SPACING * 0.4
    linked = np.array([dist[a, b] for a, b in edges if a != b])
    assert np.median(linked) < 0.3 * np.median(dist[np.isfinite(dist)])  # links pull their ends together


def test_many_void_qt_calls_keep_none_alive() -> None:
    """pyside6-essentials 6.12.0 dropped a reference to None on every void call under CPython 3.11 and the
    process aborted ("none_dealloc") after a few thousand: a wheel with that bug fails here."""
    image = QImage(64, 64, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    before = sys.getrefcount(None)
    for _ in range(20000):  # more than None's whole count at start-up
        painter.drawLine(QPointF(0, 0), QPointF(9, 9))
    painter.end()
    assert before - sys.getrefcount(None) < 100


def test_a_relayout_keeps_known_nodes_where_they_were() -> None:
    rng = np.random.default_rng(5)
    edges = [tuple(pair) for pair in rng.integers(0, 300, size=(400, 2))]
    before = graph_layout.layout(300, edges)
    grown = [*edges, (300, 1), (301, 2), (302, 300)]  # three records more, linked in
    after = graph_layout.layout(303, grown, known={i: (x, y) for i, (x, y) in enumerate(before)})
    moved = np.hypot(*(after[:300] - before).T)
    assert np.median(moved) < graph_layout.SPACING  # the picture settles, it does not jump
    assert np.isfinite(after).all()


def test_a_change_redraws_the_graph_in_place(qtbot: QtBot, view: GraphView, vault: Vault, ops: Operations) -> None:
    view.canvas.zoom(2)
    scale = view.canvas.transform().m11()
    new = add(vault, "The canoe paddles hang in the garden shed", domain="home")
    ops.announce(Changes.of((ChangeKind.MEMORY_ADDED,), [new]))
    qtbot.waitUntil(lambda: f"m:{new}" in view.canvas.nodes, timeout=10000)
    assert view.canvas.transform().m11() == pytest.approx(scale)  # the person's zoom is kept
