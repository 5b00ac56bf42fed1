"""The Benchmark page shows the newest report's table and plot, and says what to do when there is none."""

from __future__ import annotations

from pathlib import Path

import pytest
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
    assert view.plot.isVisible() and view.plot.renderer.isValid()
    assert view.message.text() == ""


def test_the_plot_keeps_its_proportions(qtbot: QtBot, ops: Operations, home: Path) -> None:
    """A 2:1 plot stays 2:1 in a square pane and in a wide, low one, centred, the rest of the pane left bare."""
    write(report_folder(home), "memory-benchmark-20260301T000000Z", {}, "# Run\n\n![plot](x.svg)\n", PLOT)
    view = BenchmarkView(ops)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(view.plot.renderer.isValid, timeout=10000)
    assert "plot" not in view.text.toPlainText()  # the link to the plot file is not left in the text
    for width, height in ((600, 600), (900, 150)):
        view.plot.setFixedSize(width, height)
        target = view.plot.target()
        assert target.width() / target.height() == pytest.approx(2.0)
        assert target.width() <= width and target.height() <= height
        assert target.center().x() == pytest.approx(width / 2) and target.center().y() == pytest.approx(height / 2)
        image = view.plot.grab().toImage()
        inside, corner = image.pixelColor(width // 2, height // 2), image.pixelColor(1, 1)
        assert inside.name() == "#000000" and corner.name() != "#000000"  # the black plot, not stretched to the corner
    assert view.plot.heightForWidth(800) == 400
