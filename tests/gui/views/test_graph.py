"""The Graph view and its layout: typed edges in a colour each, one node per name, unlinked records behind a toggle,
labels on hover and when zoomed in, a clicked node's neighbourhood highlighted, a double-click (or Enter) opens the
record, 2,000 nodes lay out sanely."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
)
from pytestqt.qtbot import QtBot
from viewkit import add, running, shown

from memvault.core.operations.changes import ChangeKind
from memvault.core.vault import Vault
from memvault.desktop.gui import graph_layout
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.theme import apply_scheme
from memvault.desktop.gui.windows.graph import LINK_COLOURS, GraphView
from memvault.desktop.gui.windows.graph_canvas import GraphCanvas, declutter
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


def node_point(view: GraphView, key: str) -> QPoint:
    node = view.canvas.nodes[key]
    view.canvas.centerOn(node)
    return view.canvas.mapFromScene(node.pos())


def test_double_clicking_a_record_node_opens_it_in_memories(
    qtbot: QtBot, view: GraphView, ops: Operations, ids: dict[str, str]
) -> None:
    memories = MemoriesView(ops)
    qtbot.addWidget(memories)
    view.record_opened.connect(memories.open_record)
    point = node_point(view, f"m:{ids['canoe']}")
    with qtbot.waitSignal(view.record_opened) as opened:
        qtbot.mouseDClick(view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=point)
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
    new = add(vault, "The canoe paddles hang in the garden shed", domain="home", entities=["garden shed"])
    ops.announce(Changes.of((ChangeKind.MEMORY_ADDED,), [new]))
    qtbot.waitUntil(lambda: f"m:{new}" in view.canvas.nodes, timeout=10000)
    assert view.canvas.transform().m11() == pytest.approx(scale)  # the person's zoom is kept


def test_a_click_highlights_the_neighbourhood_and_escape_clears_it(
    qtbot: QtBot, view: GraphView, ids: dict[str, str]
) -> None:
    kitchen = f"m:{ids['kitchen']}"
    with qtbot.assertNotEmitted(view.record_opened):  # one click selects; it does not leave the graph
        qtbot.mouseClick(view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=node_point(view, kitchen))
    canvas = view.canvas
    assert canvas.selected == kitchen
    assert canvas.highlighted == {kitchen, f"m:{ids['budget']}", "p:Kitchen", "e:Ada Lindqvist"}
    assert canvas.nodes[f"m:{ids['canoe']}"].opacity() < 0.5 < canvas.nodes[f"m:{ids['budget']}"].opacity()
    assert item_visible(canvas, "Kitchen budget is capped at 18,000 euros")  # the neighbours' labels
    assert item_visible(canvas, "Ada Lindqvist") and not item_visible(canvas, "garden shed")
    bold = [i for i in canvas.scene().items() if isinstance(i, QGraphicsPathItem) and i.pen().widthF() > 2]
    assert bold and all(i.opacity() == 1.0 for i in bold)
    canvas.setFocus()
    qtbot.keyClick(canvas, Qt.Key.Key_Escape)
    assert canvas.selected is None and canvas.highlighted == set()
    assert all(node.opacity() == 1.0 for node in canvas.nodes.values())


def item_visible(canvas: object, text: str) -> bool:
    return any(
        isinstance(i, QGraphicsSimpleTextItem) and i.text() == text and i.isVisible() and i.effectiveOpacity() == 1.0
        for i in canvas.scene().items()  # type: ignore[attr-defined]
    )


def test_hovering_a_node_shows_its_label_and_record_labels_appear_when_zoomed_in(
    qtbot: QtBot, view: GraphView, ids: dict[str, str]
) -> None:
    canvas = view.canvas
    statement = "Prefers a canoe trip on the river over a beach holiday"
    canvas.fitInView(canvas.scene().sceneRect())
    canvas.zoom(1.0)  # the label layers follow the zoom set here
    assert not item_visible(canvas, statement[:35] + "…")  # zoomed out: no record statements
    qtbot.mouseMove(canvas.viewport(), node_point(view, f"m:{ids['canoe']}"))
    qtbot.waitUntil(lambda: canvas.hovered == f"m:{ids['canoe']}")
    assert canvas.hover_label is not None and item_visible(canvas, statement)
    qtbot.mouseMove(canvas.viewport(), QPoint(2, 2))
    qtbot.waitUntil(lambda: canvas.hover_label is None)
    while canvas.transform().m11() < 1.6:
        canvas.zoom(1.25)
    assert item_visible(canvas, statement[:35] + "…")  # zoomed in: every record's label


def test_one_node_per_name_whatever_its_case_and_kind(
    qtbot: QtBot, view: GraphView, vault: Vault, ops: Operations
) -> None:
    """The demo names Fernbook as a project (a tag) and as an entity: one node, not two."""
    first = add(vault, "Fernbook reminds people to water plants", tags=["project:Fernbook"], entities=["Fernbook"])
    second = add(vault, "The fernbook species table lists 140 plants", entities=["fernbook"])
    third = add(vault, "Sketched a Fernbook logo with a fern", entities=["FERNBOOK ", "Ada Lindqvist"])
    ops.announce(Changes.of((ChangeKind.MEMORY_ADDED,), [first, second, third]))
    qtbot.waitUntil(lambda: f"m:{third}" in view.canvas.nodes, timeout=10000)
    assert view.data is not None
    named = [key for key in view.data.kinds if key.casefold().endswith("fernbook")]
    assert named == ["p:Fernbook"] and view.data.kinds["p:Fernbook"] == "project"
    into = sorted((start, link) for start, end, link in view.data.edges if end == "p:Fernbook")
    assert into == sorted([(f"m:{first}", "part_of_project"), (f"m:{second}", "mentions"), (f"m:{third}", "mentions")])
    assert sum(1 for key in view.data.kinds if key.casefold() == "e:ada lindqvist") == 1


def test_unlinked_records_wait_behind_a_toggle(qtbot: QtBot, view: GraphView, vault: Vault, ops: Operations) -> None:
    lone = add(vault, "Keeps a spare house key with the neighbour at number 12", domain="home")
    ops.announce(Changes.of((ChangeKind.MEMORY_ADDED,), [lone]))
    qtbot.waitUntil(lambda: view.data is not None and f"m:{lone}" in view.data.kinds, timeout=10000)
    assert f"m:{lone}" not in view.canvas.nodes
    assert "1 records without links are hidden" in view.summary.text()
    view.unlinked.setChecked(True)
    qtbot.waitUntil(lambda: f"m:{lone}" in view.canvas.nodes, timeout=10000)
    placed = [node.pos().x() for key, node in view.canvas.nodes.items() if key != f"m:{lone}"]
    assert view.canvas.nodes[f"m:{lone}"].pos().x() > max(placed)  # in a block beside the graph, not a ring
    assert "shown in the block on the right" in view.summary.text()
    view.unlinked.setChecked(False)
    qtbot.waitUntil(lambda: f"m:{lone}" not in view.canvas.nodes, timeout=10000)


def test_the_find_box_steps_through_matches_by_keyboard(qtbot: QtBot, view: GraphView, ids: dict[str, str]) -> None:
    qtbot.keyClicks(view.finder, "kitchen")
    first = view.canvas.selected
    assert first in (f"m:{ids['kitchen']}", f"m:{ids['budget']}", "p:Kitchen")
    seen = {first}
    for _ in range(3):
        qtbot.keyClick(view.finder, Qt.Key.Key_Down)
        seen.add(view.canvas.selected)
    assert seen == {f"m:{ids['kitchen']}", f"m:{ids['budget']}", "p:Kitchen"}
    while view.canvas.selected != f"m:{ids['budget']}":
        qtbot.keyClick(view.finder, Qt.Key.Key_Up)
    with qtbot.waitSignal(view.record_opened) as opened:
        qtbot.keyClick(view.finder, Qt.Key.Key_Return)
    assert opened.args == [ids["budget"]]


def test_n_and_p_step_through_the_selected_nodes_neighbours(qtbot: QtBot, view: GraphView, ids: dict[str, str]) -> None:
    kitchen = f"m:{ids['kitchen']}"
    view.select_node(kitchen)
    canvas = view.canvas
    canvas.setFocus()
    named = set()
    for _ in range(3):
        qtbot.keyClick(canvas, Qt.Key.Key_N)
        named.add(canvas.hovered)
    assert named == canvas.highlighted - {kitchen}  # each neighbour's label in turn
    qtbot.keyClick(canvas, Qt.Key.Key_P)
    assert canvas.hovered in named
    with qtbot.waitSignal(view.record_opened) as opened:
        qtbot.keyClick(canvas, Qt.Key.Key_Return)
    assert opened.args == [ids["kitchen"]]


def test_labels_that_would_cover_each_other_are_left_out_until_zoomed_apart(qtbot: QtBot) -> None:
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(600, 400)
    canvas.show()
    labels = []
    for x, y in ((0.0, 0.0), (6.0, 2.0), (0.0, 150.0)):  # the second sits on the first
        label = QGraphicsSimpleTextItem("Kitchen budget is capped")
        label.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        label.setPos(x, y)
        canvas.scene().addItem(label)
        labels.append(label)
    canvas.centerOn(0, 75)
    declutter(canvas, labels)
    assert [label.isVisible() for label in labels] == [True, False, True]
    canvas.scale(12, 12)  # 2 scene units become 24 pixels: more than a line of text apart
    declutter(canvas, labels)
    assert labels[1].isVisible()


def test_the_graph_takes_the_new_palette_when_the_system_goes_dark(
    qtbot: QtBot, view: GraphView, ids: dict[str, str], qapp: QApplication
) -> None:
    record = view.canvas.nodes[f"m:{ids['canoe']}"]
    view.select_node(f"m:{ids['canoe']}")
    apply_scheme(qapp, Qt.ColorScheme.Dark)
    try:
        dark = view.canvas.palette()
        qtbot.waitUntil(lambda: record.brush().color() == dark.color(dark.ColorRole.Highlight), timeout=5000)
        assert record.pen().color() == dark.color(dark.ColorRole.Text)
        assert view.canvas.selected == f"m:{ids['canoe']}"  # the selection and its highlight stay
        assert item_visible(view.canvas, "Prefers a canoe trip on the river over a beach holiday")
    finally:
        apply_scheme(qapp, Qt.ColorScheme.Light)
