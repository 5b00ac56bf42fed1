"""The inbox says why each proposal waits (first words in the row, the whole reason on hover and in the
detail) and badges a sensitive record to be added, in light and dark, in words a screen reader says too."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.core.writer.writes import NEW_DOMAIN, REVIEW, SENSITIVE_WAITS
from memvault.desktop.gui.badges import BADGE_ROLE, badge_colours
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.theme import apply_scheme
from memvault.desktop.gui.windows.inbox import COLUMNS, SUMMARY, InboxView

AUTO = "automatic-write-within-approved-scope"
WHY = COLUMNS.index("Why it waits")
ORDINARY = "Plays the ukulele on Sunday afternoons"  # fictional, like everything here
SENSITIVE = "Sees a psychiatrist every other Friday for bipolar disorder"
SAILING = "Sails a small dinghy on the Lindenhof reservoir in summer"
DIABETES = "I was diagnosed with type 2 diabetes last spring and take metformin with breakfast"


@pytest.fixture
def staged(vault: Vault) -> dict[str, str]:
    """An assistant's adds: two in review-before-write, two in automatic mode (a new domain, a sensitive matter)."""
    ids = {
        "ordinary": vault.add(LOCAL_ASSISTANT, Draft.of(statement=ORDINARY, domain="hobbies")),
        "sensitive": vault.add(LOCAL_ASSISTANT, Draft.of(statement=SENSITIVE, domain="health")),
    }
    vault.set_setting(OWNER, "write_mode", AUTO)
    ids["new domain"] = vault.add(LOCAL_ASSISTANT, Draft.of(statement=SAILING, domain="sailing", confidence=0.95))
    vault.set_setting(OWNER, "auto_write_domains", "*")
    ids["auto sensitive"] = vault.add(LOCAL_ASSISTANT, Draft.of(statement=DIABETES, domain="health", confidence=0.95))
    assert all(answer["outcome"] == "staged" for answer in ids.values()), ids
    return {key: str(answer["proposal_id"]) for key, answer in ids.items()}


def open_inbox(qtbot: QtBot, ops: Operations, count: int) -> InboxView:
    view = InboxView(ops)
    qtbot.addWidget(view)
    view.resize(1400, 700)
    view.show()
    qtbot.waitUntil(lambda: len(view.items) == count, timeout=10000)
    return view


def row_of(view: InboxView, proposal_id: str) -> int:
    return next(row for row, item in enumerate(view.items) if item.id == proposal_id)


def cell(view: InboxView, proposal_id: str, column: int) -> QModelIndex:
    return view.table.model().index(row_of(view, proposal_id), column)


def select(view: InboxView, proposal_id: str) -> None:
    view.table.clearSelection()
    view.table.selectRow(row_of(view, proposal_id))


def fill_pixels(view: InboxView, index: QModelIndex, fill: QColor) -> int:
    """How many pixels of the cell are the badge's fill."""
    image: QImage = view.table.viewport().grab().toImage()
    rect = view.table.visualRect(index)
    return sum(
        image.pixelColor(x, y).name() == fill.name()
        for x in range(rect.left(), rect.right())
        for y in range(rect.top(), rect.bottom())
    )


def test_each_row_says_why_it_waits_with_the_whole_reason_on_hover(
    qtbot: QtBot, ops: Operations, staged: dict[str, str]
) -> None:
    view = open_inbox(qtbot, ops, 8)  # the shell's four proposals and these four
    assert COLUMNS[WHY] == "Why it waits"
    said = {key: cell(view, pid, WHY).data() for key, pid in staged.items()}
    assert said == {
        "ordinary": "review-before-write",
        "sensitive": "review-before-write",  # the mode asks first: the badge still says what it is
        "new domain": "a new domain waits for revi…",
        "auto sensitive": "sensitive",
    }
    hover = {key: cell(view, pid, WHY).data(Qt.ItemDataRole.ToolTipRole) for key, pid in staged.items()}
    assert hover["ordinary"] == REVIEW and hover["new domain"] == NEW_DOMAIN
    assert hover["auto sensitive"] == SENSITIVE_WAITS
    select(view, staged["new domain"])
    detail = view.detail.toPlainText()
    assert "Why it waits" in detail and "auto_write_domains" in detail  # the whole reason, how to change it


def test_a_staged_correction_says_why_it_waits_too(qtbot: QtBot, ops: Operations, staged: dict[str, str]) -> None:
    view = open_inbox(qtbot, ops, 8)
    correction = next(item.id for item in view.items if item.kind == "correct")
    assert cell(view, correction, WHY).data() == "review-before-write"
    assert cell(view, correction, WHY).data(Qt.ItemDataRole.ToolTipRole).startswith("review-before-write: ")


def test_a_sensitive_add_carries_a_badge_seen_and_said(qtbot: QtBot, ops: Operations, staged: dict[str, str]) -> None:
    view = open_inbox(qtbot, ops, 8)
    fill, _ = badge_colours(view.table.palette())
    for key in ("sensitive", "auto sensitive"):
        summary = cell(view, staged[key], SUMMARY)
        assert summary.data(BADGE_ROLE) == "sensitive"
        assert summary.data(Qt.ItemDataRole.AccessibleTextRole).startswith("sensitive: ")
        assert fill_pixels(view, summary, fill) > 40, key  # the pill is drawn
    plain = cell(view, staged["ordinary"], SUMMARY)
    assert plain.data(BADGE_ROLE) is None and plain.data(Qt.ItemDataRole.AccessibleTextRole) is None
    assert fill_pixels(view, plain, fill) == 0
    select(view, staged["sensitive"])
    assert "sensitive" in view.detail.toPlainText().split("\n")[1]  # under the title
    assert fill.name() in view.detail.toHtml()
    select(view, staged["ordinary"])
    assert fill.name() not in view.detail.toHtml()


def test_the_badge_reads_in_dark_too_and_follows_a_change_of_scheme(
    qtbot: QtBot, qapp: QApplication, ops: Operations, staged: dict[str, str]
) -> None:
    view = open_inbox(qtbot, ops, 8)
    select(view, staged["sensitive"])
    light, _ = badge_colours(view.table.palette())
    try:
        apply_scheme(qapp, Qt.ColorScheme.Dark)
        qtbot.waitUntil(lambda: badge_colours(view.table.palette())[0] != light, timeout=5000)
        palette = view.table.palette()
        fill, ink = badge_colours(palette)
        assert fill != light and fill.lightness() > palette.color(palette.ColorRole.Base).lightness()
        assert ink == palette.color(palette.ColorRole.Base)
        assert fill_pixels(view, cell(view, staged["sensitive"], SUMMARY), fill) > 40
        qtbot.waitUntil(lambda: f"background-color:{fill.name()}" in view.detail.toHtml().replace(" ", ""))
    finally:
        apply_scheme(qapp, Qt.ColorScheme.Light)
