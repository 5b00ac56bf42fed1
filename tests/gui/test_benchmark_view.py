"""The Benchmark page shows the newest report's table and plot, and says what to do when there is none."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from memvault.core.bench import plot
from memvault.core.bench.report import report_folder, write
from memvault.core.bench.summary import Summary
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.readable_style import contrast
from memvault.desktop.gui.theme import apply_scheme
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


def _summary(condition: str, quality: float, tokens: float, latency: float) -> Summary:
    values: dict[str, object] = {field.name: 0 for field in fields(Summary)}
    values |= {"condition": condition, "quality": quality, "tokens_per_question": tokens, "latency_ms_mean": latency}
    return Summary(**values)  # type: ignore[arg-type]


def _share(image: QImage, test: Callable[[QColor], bool]) -> float:
    """The share of the picture's pixels for which `test(colour)` holds (every third pixel looked at)."""
    seen = [image.pixelColor(x, y) for x in range(0, image.width(), 3) for y in range(0, image.height(), 3)]
    return sum(1 for colour in seen if test(colour)) / len(seen)


def test_the_plot_takes_the_dark_palette_and_is_no_white_picture(
    qtbot: QtBot, qapp: QApplication, ops: Operations, home: Path
) -> None:
    """A real plot shows the window through it and words in the palette's text colour: dark on light, light on
    dark (no white picture in a dark window), following a change of scheme while it is open."""
    figure = plot.svg([_summary("no memory", 0.12, 0, 0), _summary("memvault", 0.91, 420, 11.5)])
    assert "@media (prefers-color-scheme: dark)" in figure  # a browser shows the file dark where asked, too
    write(report_folder(home), "memory-benchmark-20260301T000000Z", {}, "# Run\n", figure)
    view = BenchmarkView(ops)
    qtbot.addWidget(view)
    view.resize(900, 900)
    view.show()
    qtbot.waitUntil(view.plot.renderer.isValid, timeout=10000)
    view.plot.setFixedSize(760, 370)

    def white(colour: QColor) -> bool:
        return colour.lightness() > 245

    paper = view.plot.palette().color(QPalette.ColorRole.Window)
    light = view.plot.grab().toImage()
    assert _share(light, lambda c: c == paper) > 0.8 and _share(light, lambda c: contrast(c, paper) > 7) > 0.005
    try:
        apply_scheme(qapp, Qt.ColorScheme.Dark)
        window = QColor("#202326")
        qtbot.waitUntil(lambda: view.plot.palette().color(QPalette.ColorRole.Window) == window, timeout=5000)
        qtbot.waitUntil(lambda: _share(view.plot.grab().toImage(), white) < 0.01, timeout=5000)
        image = view.plot.grab().toImage()
        assert _share(image, lambda c: c == window) > 0.8  # the window's own colour behind the figure
        words = _share(image, lambda c: contrast(c, window) > 7)  # light text and marks on it
        assert words > 0.005
    finally:
        apply_scheme(qapp, Qt.ColorScheme.Light)
