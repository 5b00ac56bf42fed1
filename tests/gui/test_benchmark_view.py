"""The Benchmark page shows the newest report's table and plot, and says what to do when there is none."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from memvault.core.bench.report import report_folder, write
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.windows.benchmark import EMPTY, BenchmarkView

PLOT = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>'


def test_without_a_report_the_page_says_how_to_get_one(qtbot: QtBot, ops: Operations) -> None:
    view = BenchmarkView(ops)
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: not ops.busy, timeout=10000)
    assert view.message.text() == EMPTY
    assert not view.text.isVisibleTo(view)


def test_the_newest_report_is_shown(qtbot: QtBot, ops: Operations, home: Path) -> None:
    folder = report_folder(home)
    write(folder, "memory-benchmark-20260101T000000Z", {}, "# Old run\n", None)
    table = "# Memory benchmark\n\n| metric | no memory | memvault |\n|---|---:|---:|\n| recall@5 | 0.10 | 0.94 |\n"
    write(folder, "memory-benchmark-20260301T000000Z", {}, table, PLOT)
    view = BenchmarkView(ops)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: "recall@5" in view.text.toPlainText(), timeout=10000)
    assert "Old run" not in view.text.toPlainText()
    assert view.plot.isVisible() and view.plot.renderer().isValid()
    assert view.message.text() == ""
