"""The Timeline view: validity bars, superseded versions with their step, filters, zoom and opening a record."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot
from viewkit import add, correct, running, shown

from memvault.core.operations.changes import ChangeKind
from memvault.core.vault import Vault
from memvault.desktop.gui.models.timeline_lanes import days
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.windows.timeline import TimelineView


@pytest.fixture
def ids(ids: dict[str, str], vault: Vault) -> dict[str, str]:
    found = dict(ids)
    found["hallway"] = str(correct(vault, found["bicycle"], "The blue bicycle is kept in the hallway"))
    return found


@pytest.fixture
def view(qtbot: QtBot, ops: Operations, ids: dict[str, str]) -> TimelineView:
    return shown(qtbot, TimelineView(ops), (1100, 600), lambda v: len(v.canvas.lanes) == len(ids))


def lane_ids(view: TimelineView) -> list[str]:
    return [str(lane.record["id"]) for lane in view.canvas.lanes]


def test_superseded_versions_show_with_their_step(view: TimelineView, ids: dict[str, str]) -> None:
    order = lane_ids(view)
    old, new = order.index(ids["bicycle"]), order.index(ids["hallway"])
    assert new == old + 1  # versions of one record side by side
    old_lane, new_lane = view.canvas.lanes[old], view.canvas.lanes[new]
    assert old_lane.superseded and old_lane.next_lane == new
    assert old_lane.start == days("2024-06-01") and old_lane.end == new_lane.start
    assert new_lane.end is None  # still valid
    assert "1 superseded" in view.summary.text()
    image = view.canvas.viewport().grab().toImage()
    assert not image.isNull()


def test_event_time_and_learned_time_are_told_apart(view: TimelineView, ids: dict[str, str]) -> None:
    kitchen = view.canvas.lanes[lane_ids(view).index(ids["kitchen"])]
    assert kitchen.start == days("2025-01-10")  # when it held in the world
    learned = [day for day, kind in kitchen.markers if kind == "learned"]
    assert learned and learned[0] > kitchen.start  # when the store learned it, later


def test_filters_by_domain_entity_and_project(qtbot: QtBot, view: TimelineView, ids: dict[str, str]) -> None:
    qtbot.waitUntil(lambda: view.domain.findData("travel") >= 0)
    view.domain.setCurrentIndex(view.domain.findData("travel"))
    qtbot.waitUntil(lambda: lane_ids(view) == [ids["canoe"]])
    view.domain.setCurrentIndex(0)
    qtbot.keyClicks(view.entity, "garden shed")
    qtbot.keyClick(view.entity, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: ids["bicycle"] in lane_ids(view) and ids["kitchen"] not in lane_ids(view))
    view.entity.clear()
    qtbot.keyClicks(view.project, "Kitchen")
    qtbot.keyClick(view.project, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: lane_ids(view) == [ids["kitchen"]])  # its states, decisions and open items
    view.project.setText("No such project")
    qtbot.keyClick(view.project, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.canvas.lanes == [] and "Could not show" in view.summary.text())


def test_zoom_from_years_to_days(view: TimelineView) -> None:
    view.zoom.setCurrentText("Years")
    labels = [label for _day, label in view.canvas._visible_ticks()]
    assert labels and all(len(label) == 4 for label in labels)
    view.zoom.setCurrentText("Days")
    assert view.canvas.per_day == 120.0
    labels = [label for _day, label in view.canvas._visible_ticks()]
    assert labels and all(len(label) == 10 for label in labels)


def test_clicking_a_bar_or_enter_opens_the_record(qtbot: QtBot, view: TimelineView, ids: dict[str, str]) -> None:
    canvas = view.canvas
    index = lane_ids(view).index(ids["canoe"])
    canvas.choose(index)
    y = round(canvas.lane_top(index) + canvas.lane_height / 2)
    with qtbot.waitSignal(view.record_opened) as opened:
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(200, y))
    assert opened.args == [ids["canoe"]]
    canvas.setFocus()
    qtbot.keyClick(canvas, Qt.Key.Key_Down)
    with qtbot.waitSignal(view.record_opened) as opened:
        qtbot.keyClick(canvas, Qt.Key.Key_Return)
    assert opened.args == [lane_ids(view)[min(index + 1, len(ids) - 1)]]


def test_an_empty_store_explains_itself(qtbot: QtBot, vault: Vault) -> None:
    with running(vault) as ops:
        shown = TimelineView(ops)
        qtbot.addWidget(shown)
        assert shown.summary.text() == ""  # nothing loaded while hidden
        shown.show()
        qtbot.waitUntil(lambda: shown.summary.text() != "")
        assert "No records yet" in shown.summary.text()


def test_a_change_refreshes_it_now_when_shown_else_when_shown_again(
    qtbot: QtBot, view: TimelineView, vault: Vault, ops: Operations
) -> None:
    first = add(vault, "Took the night train to Vienna", domain="travel")
    ops.announce(Changes.of((ChangeKind.MEMORY_ADDED,), [first]))
    qtbot.waitUntil(lambda: first in lane_ids(view))
    view.hide()
    second = add(vault, "Booked a sleeper cabin to Rome", domain="travel")
    ops.announce(Changes.of((ChangeKind.MEMORY_ADDED,), [second]))
    qtbot.wait(300)
    assert second not in lane_ids(view)  # hidden: no work spent
    view.show()
    qtbot.waitUntil(lambda: second in lane_ids(view))
