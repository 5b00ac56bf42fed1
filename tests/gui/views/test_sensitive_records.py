"""Sensitive records in the Memories view: a badge before the statement in the table and under it in the detail
pane (seen and said); the person's own correction says why it was not saved (a secret, a passing mood) or that
it is kept sensitive, and where."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from viewkit import add, shown

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from memvault.desktop.gui.badges import BADGE_ROLE, badge_colours
from memvault.desktop.gui.models.record_table import STATEMENT
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.theme import apply_scheme
from memvault.desktop.gui.windows.memories import MemoriesView

SENSITIVE = "I was diagnosed with type 2 diabetes last spring and take metformin with breakfast"  # fictional
ORDINARY = "The canoe is stored in the boathouse at the Lindenhof reservoir"


@pytest.fixture
def records(vault: Vault) -> dict[str, str]:
    return {"sensitive": add(vault, SENSITIVE, domain="health"), "ordinary": add(vault, ORDINARY, domain="hobbies")}


@pytest.fixture
def view(qtbot: QtBot, ops: Operations, records: dict[str, str]) -> MemoriesView:
    return shown(qtbot, MemoriesView(ops), (1200, 800), lambda v: v.model.rowCount() == len(records))


def statement_cell(view: MemoriesView, memory_id: str) -> QModelIndex:
    row = view.filtered.mapFromSource(view.model.index(view.model.row_of(memory_id), 0)).row()
    return view.filtered.index(row, STATEMENT)


def fill_pixels(view: MemoriesView, index: QModelIndex, fill: QColor) -> int:
    image = view.table.viewport().grab().toImage()
    rect = view.table.visualRect(index)
    return sum(
        image.pixelColor(x, y).name() == fill.name()
        for x in range(rect.left(), rect.right())
        for y in range(rect.top(), rect.bottom())
    )


def open_record(qtbot: QtBot, view: MemoriesView, memory_id: str) -> None:
    view.open_record(memory_id)
    qtbot.waitUntil(lambda: view.detail.detail is not None and view.detail.detail.memory["id"] == memory_id)


def correct_to(qtbot: QtBot, view: MemoriesView, statement: str) -> None:
    qtbot.mouseClick(view.detail.buttons["correct"], Qt.MouseButton.LeftButton)
    view.detail.form.statement.setPlainText(statement)
    qtbot.mouseClick(view.detail.form.confirm, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.detail.message.text() not in ("", "Working…"))


def test_the_table_badges_a_sensitive_statement_seen_and_said(
    view: MemoriesView, vault: Vault, records: dict[str, str]
) -> None:
    assert vault.get(OWNER, records["sensitive"])["memory"]["sensitivity"] == "sensitive"  # the writer's judgement
    fill, _ = badge_colours(view.table.palette())
    badged, plain = statement_cell(view, records["sensitive"]), statement_cell(view, records["ordinary"])
    assert badged.data(BADGE_ROLE) == "sensitive"
    assert badged.data(Qt.ItemDataRole.AccessibleTextRole) == f"sensitive: {SENSITIVE}"
    assert badged.data() == SENSITIVE  # the statement itself is unchanged (sorting, copying, hover)
    assert fill_pixels(view, badged, fill) > 40
    assert plain.data(BADGE_ROLE) is None and fill_pixels(view, plain, fill) == 0


def test_the_detail_pane_badges_a_sensitive_record_and_follows_the_scheme(
    qtbot: QtBot, qapp: QApplication, view: MemoriesView, records: dict[str, str]
) -> None:
    open_record(qtbot, view, records["sensitive"])
    light, _ = badge_colours(view.detail.palette())
    lines = view.detail.page.toPlainText().splitlines()
    assert lines[0] == SENSITIVE and "sensitive" in lines[1] and "kept local_only" in lines[1]
    assert f"background-color:{light.name()}" in view.detail.page.toHtml().replace(" ", "")
    try:
        apply_scheme(qapp, Qt.ColorScheme.Dark)
        qtbot.waitUntil(lambda: badge_colours(view.detail.palette())[0] != light, timeout=5000)
        dark, _ = badge_colours(view.detail.palette())
        qtbot.waitUntil(lambda: f"background-color:{dark.name()}" in view.detail.page.toHtml().replace(" ", ""))
    finally:
        apply_scheme(qapp, Qt.ColorScheme.Light)
    open_record(qtbot, view, records["ordinary"])
    assert "kept local_only" not in view.detail.page.toPlainText()


@pytest.mark.parametrize(
    ("statement", "why"),
    [
        ("The boathouse door code is 4471 and the alarm password is Kestrel-Fict!0us", "holds a secret"),
        ("Feeling really tired and grumpy today", "a passing mood, not a durable fact"),
    ],
)
def test_a_refused_correction_says_why_and_nothing_is_saved(
    qtbot: QtBot, view: MemoriesView, vault: Vault, records: dict[str, str], statement: str, why: str
) -> None:
    open_record(qtbot, view, records["ordinary"])
    correct_to(qtbot, view, statement)
    said = view.detail.message.text()
    assert said.startswith("Not saved: ") and why in said and "refused" not in said
    assert "Kestrel" not in said  # the reason names the kind of secret, never the secret
    record = vault.get(OWNER, records["ordinary"])["memory"]
    assert (record["status"], record["statement"]) == ("current", ORDINARY)
    assert view.detail.form.isVisible()  # the statement is still there to change


def test_a_correction_judged_sensitive_says_it_is_kept_sensitive_and_shows_the_badge(
    qtbot: QtBot, view: MemoriesView, vault: Vault, records: dict[str, str]
) -> None:
    open_record(qtbot, view, records["ordinary"])
    correct_to(qtbot, view, "Sees a psychiatrist every other Friday for bipolar disorder")
    qtbot.waitUntil(lambda: view.detail.detail is not None and view.detail.detail.memory["id"] != records["ordinary"])
    said = view.detail.message.text()
    assert said.startswith("Superseded.") and "The new version is sensitive (health" in said
    assert said.endswith(": kept local_only.")
    new = vault.get(OWNER, view.detail.detail.memory["id"])["memory"]
    assert (new["sensitivity"], new["supersedes_id"]) == ("sensitive", records["ordinary"])
    assert "kept local_only" in view.detail.page.toPlainText()
    qtbot.waitUntil(lambda: statement_cell(view, new["id"]).data(BADGE_ROLE) == "sensitive")
