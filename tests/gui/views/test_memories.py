"""The Memories view on a real store: search as you type, filters, the columns and times, the detail pane and its
actions."""

from __future__ import annotations

import hashlib
from datetime import date

import pytest
from PySide6.QtCore import QDate, QDateTime, QLocale, Qt
from pytestqt.qtbot import QtBot
from viewkit import BUDGET_EVIDENCE, correct, shown

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER, MemoryType
from memvault.desktop.gui import human_time
from memvault.desktop.gui.main_window import MainWindow
from memvault.desktop.gui.models.record_table import COLUMNS, plain_words
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.tray import Tray
from memvault.desktop.gui.windows.memories import MemoriesView


@pytest.fixture
def view(qtbot: QtBot, ops: Operations, ids: dict[str, str]) -> MemoriesView:
    return shown(qtbot, MemoriesView(ops), (1200, 800), lambda v: v.model.rowCount() == len(ids))


def shown_ids(view: MemoriesView) -> list[str]:
    return [str(view.filtered.index(r, 0).data(Qt.ItemDataRole.UserRole + 1)) for r in range(view.filtered.rowCount())]


def open_row(qtbot: QtBot, view: MemoriesView, memory_id: str) -> None:
    row = shown_ids(view).index(memory_id)
    qtbot.mouseClick(
        view.table.viewport(),
        Qt.MouseButton.LeftButton,
        pos=view.table.visualRect(view.filtered.index(row, 0)).center(),
    )
    qtbot.waitUntil(lambda: view.detail.detail is not None and view.detail.detail.memory["id"] == memory_id)


def test_typing_a_search_shows_matching_rows(qtbot: QtBot, view: MemoriesView, ids: dict[str, str]) -> None:
    qtbot.keyClicks(view.search, "bicycle shed")
    qtbot.waitUntil(lambda: view.summary.text().endswith("best matches"))
    assert shown_ids(view)[0] == ids["bicycle"]
    assert view.model.row_at(0)["tier"] in ("hot", "warm", "cold")
    view.search.clear()
    qtbot.waitUntil(lambda: len(shown_ids(view)) == len(ids))


def test_filters_narrow_the_rows(qtbot: QtBot, view: MemoriesView, ids: dict[str, str]) -> None:
    qtbot.waitUntil(lambda: view.domain.findData("travel") >= 0)
    view.domain.setCurrentIndex(view.domain.findData("travel"))
    qtbot.waitUntil(lambda: shown_ids(view) == [ids["canoe"]])
    view.domain.setCurrentIndex(0)
    qtbot.waitUntil(lambda: len(shown_ids(view)) == len(ids))
    view.scope.setCurrentIndex(view.scope.findData("remote_allowed"))
    assert shown_ids(view) == [ids["budget"]]
    view.scope.setCurrentIndex(0)
    view.type.setCurrentIndex(view.type.findData("PREFERENCE"))
    qtbot.waitUntil(lambda: shown_ids(view) == [ids["canoe"]])


def test_the_table_sorts_by_a_column(qtbot: QtBot, view: MemoriesView) -> None:
    view.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    statements = [str(view.filtered.index(r, 0).data()) for r in range(view.filtered.rowCount())]
    assert statements == sorted(statements, key=str.casefold)


def test_opening_a_record_shows_all_of_it(qtbot: QtBot, view: MemoriesView, ids: dict[str, str]) -> None:
    open_row(qtbot, view, ids["budget"])
    text = view.detail.page.toPlainText()
    assert "Kitchen budget is capped at 18,000 euros" in text
    assert "part_of_project" in text and ids["kitchen"] in text
    assert "Provenance" in text and "Version chain" in text
    assert BUDGET_EVIDENCE in text
    digest = hashlib.sha256(BUDGET_EVIDENCE.encode()).hexdigest()
    assert f"sha256 {digest[:16]}… (the evidence still matches it)" in text
    assert not view.detail.buttons["restore"].isEnabled()


def test_browsing_counts_no_usage(qtbot: QtBot, view: MemoriesView, vault: Vault, ids: dict[str, str]) -> None:
    qtbot.keyClicks(view.search, "kitchen budget")
    qtbot.waitUntil(lambda: view.summary.text().endswith("best matches"))
    open_row(qtbot, view, ids["budget"])
    assert ids["budget"] in shown_ids(view)
    assert all(vault.get(OWNER, memory_id)["memory"]["retrieval_count"] == 0 for memory_id in ids.values())


def test_correcting_supersedes_the_record_in_the_store(
    qtbot: QtBot, view: MemoriesView, vault: Vault, ids: dict[str, str]
) -> None:
    open_row(qtbot, view, ids["budget"])
    qtbot.mouseClick(view.detail.buttons["correct"], Qt.MouseButton.LeftButton)
    assert view.detail.form.isVisible()
    view.detail.form.statement.setPlainText("Kitchen budget is capped at 21,000 euros")
    qtbot.keyClicks(view.detail.form.reason, "quote came in higher")
    qtbot.mouseClick(view.detail.form.confirm, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.detail.detail is not None and view.detail.detail.memory["id"] != ids["budget"])
    new = vault.get(OWNER, view.detail.detail.memory["id"])
    assert new["memory"]["statement"] == "Kitchen budget is capped at 21,000 euros"
    assert new["memory"]["supersedes_id"] == ids["budget"]
    assert vault.get(OWNER, ids["budget"])["memory"]["status"] == "superseded"
    assert "18,000" in view.detail.page.toPlainText()  # the old version in the chain


def test_archive_then_restore(qtbot: QtBot, view: MemoriesView, vault: Vault, ids: dict[str, str]) -> None:
    open_row(qtbot, view, ids["canoe"])
    qtbot.mouseClick(view.detail.buttons["archive"], Qt.MouseButton.LeftButton)
    qtbot.keyClicks(view.detail.form.reason, "no longer true")
    qtbot.mouseClick(view.detail.form.confirm, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: vault.get(OWNER, ids["canoe"])["memory"]["status"] == "archived")
    qtbot.waitUntil(lambda: ids["canoe"] not in shown_ids(view))  # the list refreshed itself
    qtbot.waitUntil(view.detail.buttons["restore"].isEnabled)
    qtbot.mouseClick(view.detail.buttons["restore"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: vault.get(OWNER, ids["canoe"])["memory"]["status"] == "current")
    qtbot.waitUntil(lambda: ids["canoe"] in shown_ids(view))


def test_changing_the_access_scope_reaches_the_store(
    qtbot: QtBot, view: MemoriesView, vault: Vault, ids: dict[str, str]
) -> None:
    open_row(qtbot, view, ids["bicycle"])
    qtbot.mouseClick(view.detail.buttons["scope"], Qt.MouseButton.LeftButton)
    form = view.detail.form
    assert form.scope.currentData() == "local_only" and not form.reason.isVisible()
    form.scope.setCurrentIndex(form.scope.findData("workspace_allowed"))
    qtbot.mouseClick(form.confirm, Qt.MouseButton.LeftButton)  # no workspace named: refused
    qtbot.waitUntil(lambda: view.detail.message.text().startswith("Not done"))
    assert vault.get(OWNER, ids["bicycle"])["memory"]["access_scope"] == "local_only"
    form.scope.setCurrentIndex(form.scope.findData("remote_allowed"))
    qtbot.mouseClick(form.confirm, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: vault.get(OWNER, ids["bicycle"])["memory"]["access_scope"] == "remote_allowed")
    qtbot.waitUntil(lambda: "remote_allowed" in view.detail.page.toPlainText())


def test_a_refused_action_says_why_and_changes_nothing(
    qtbot: QtBot, view: MemoriesView, vault: Vault, ids: dict[str, str]
) -> None:
    open_row(qtbot, view, ids["bicycle"])
    correct(vault, ids["bicycle"], "The blue bicycle is kept in the hallway")  # another window
    qtbot.mouseClick(view.detail.buttons["archive"], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(view.detail.form.confirm, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.detail.message.text().startswith("Not done"))
    assert vault.get(OWNER, ids["bicycle"])["memory"]["status"] == "superseded"


def test_as_of_shows_the_version_that_stood_then(
    qtbot: QtBot, view: MemoriesView, vault: Vault, ids: dict[str, str]
) -> None:
    correct(vault, ids["bicycle"], "The blue bicycle is kept in the hallway")
    view.as_of.edit.setDateTime(QDateTime.fromString("2025-03-01T12:00:00Z", Qt.DateFormat.ISODate))
    view.as_of.check.setChecked(True)
    assert "as things stood then" in view.summary.text()
    qtbot.keyClicks(view.search, "blue bicycle")
    qtbot.waitUntil(lambda: ids["bicycle"] in shown_ids(view))
    assert all(
        view.model.row_at(r)["statement"] != "The blue bicycle is kept in the hallway"
        for r in range(view.model.rowCount())
    )
    open_row(qtbot, view, ids["bicycle"])
    text = view.detail.page.toPlainText()
    assert "garden shed" in text and "As it stood as of 2025-03-01" in text
    view.as_of.check.setChecked(False)
    qtbot.waitUntil(lambda: ids["bicycle"] not in shown_ids(view) and len(shown_ids(view)) > 0)


def column(title: str) -> int:
    return next(i for i, spec in enumerate(COLUMNS) if spec.title == title)


def shown_titles(view: MemoriesView) -> list[str]:
    return [spec.title for i, spec in enumerate(COLUMNS) if not view.table.isColumnHidden(i)]


@pytest.mark.parametrize("size", [(1020, 630), (1600, 1000)])
def test_the_statement_takes_the_remaining_width_and_nothing_else_is_cut(
    qtbot: QtBot, ops: Operations, ids: dict[str, str], size: tuple[int, int]
) -> None:
    window = MainWindow(ops, Tray(ops))
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    view = window.page("Memories")
    assert isinstance(view, MemoriesView)
    qtbot.waitUntil(lambda: view.model.rowCount() == len(ids), timeout=10000)
    table, header = view.table, view.table.horizontalHeader()
    metrics = table.fontMetrics()
    assert shown_titles(view)[:2] == ["Statement", "Type"]
    widest_type = max(metrics.horizontalAdvance(plain_words(t.value)) for t in MemoryType)
    assert header.sectionSize(column("Type")) >= widest_type + 8  # "Successful approach" whole
    shown = [i for i in range(len(COLUMNS)) if not table.isColumnHidden(i)]
    assert sum(header.sectionSize(i) for i in shown) == pytest.approx(table.viewport().width(), abs=2)
    assert table.horizontalScrollBar().maximum() == 0  # no sideways scrolling
    assert header.sectionSize(column("Statement")) >= metrics.averageCharWidth() * 30
    assert table.textElideMode() == Qt.TextElideMode.ElideMiddle
    if size[0] >= 1600:
        assert {"Domain", "Learned"} <= set(shown_titles(view))  # room for them
        assert header.sectionSize(column("Statement")) > 400
        assert not table.wordWrap()  # one line per record
    else:  # narrow: two lines per record, so most statements read whole
        assert table.wordWrap()
        assert table.rowHeight(0) >= 2 * metrics.lineSpacing()


def test_times_read_as_people_say_them_with_the_exact_time_on_hover(
    qtbot: QtBot, view: MemoriesView, ids: dict[str, str]
) -> None:
    row = view.model.row_of(ids["kitchen"])
    learned = view.model.index(row, column("Learned"))
    assert learned.data() == "just now"
    assert "UTC" in learned.data(Qt.ItemDataRole.ToolTipRole)
    valid = view.model.index(row, column("Valid from"))
    assert valid.data() == human_time.short_date(date(2025, 1, 10))  # older than a week: the locale's date
    assert valid.data(Qt.ItemDataRole.ToolTipRole) == QLocale().toString(
        QDate(2025, 1, 10), QLocale.FormatType.LongFormat
    )
    statement = view.model.index(row, column("Statement"))
    assert statement.data(Qt.ItemDataRole.ToolTipRole) == statement.data()  # the whole text on hover
    assert view.model.index(row, column("Type")).data() == "Project"
    open_row(qtbot, view, ids["kitchen"])
    text = view.detail.page.toPlainText()
    assert "just now · " in text and "T00:00:00" not in text  # no raw ISO strings in the detail pane


def test_the_columns_menu_and_the_status_filter_show_more_columns(
    qtbot: QtBot, view: MemoriesView, ids: dict[str, str]
) -> None:
    assert "Valid from" not in shown_titles(view) and "Status" not in shown_titles(view)
    view.columns.actions[column("Valid from")].trigger()
    assert "Valid from" in shown_titles(view)
    view.columns.actions[column("Valid from")].trigger()
    assert "Valid from" not in shown_titles(view)
    view.status.setCurrentIndex(view.status.findData("superseded"))
    assert "Status" in shown_titles(view)  # records other than current: their status matters
    view.status.setCurrentIndex(view.status.findData("current"))
    assert "Status" not in shown_titles(view)


def test_columns_give_way_before_the_statement_in_a_narrow_table(
    qtbot: QtBot, view: MemoriesView, ids: dict[str, str]
) -> None:
    view.resize(1900, 800)
    for title in ("Valid from", "Valid until", "Access scope"):
        view.columns.actions[column(title)].trigger()
    qtbot.waitUntil(lambda: {"Valid from", "Valid until", "Access scope", "Domain"} <= set(shown_titles(view)))
    view.resize(700, 800)
    qtbot.waitUntil(lambda: "Valid until" not in shown_titles(view))
    assert (
        view.table.horizontalHeader().sectionSize(column("Statement"))
        >= view.table.fontMetrics().averageCharWidth() * 30
    )
    assert "Type" in shown_titles(view)  # the last to give way
    view.resize(1900, 800)
    qtbot.waitUntil(lambda: "Valid until" in shown_titles(view))
