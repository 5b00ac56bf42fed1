"""Benchmark: the newest memory-benchmark report (its table and plot) and a button to run one.

The run is the same code as the `memory_benchmark` MCP tool and `memvault bench memory`: three
conditions on a fictional data set, each in its own temporary store; only the report folder
(MEMVAULT_HOME/benchmarks/) is written. It takes minutes, on the worker, with a busy dialog.
The plot is drawn in the window's palette (no background of its own, the palette's text), and again
when the palette changes.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from memvault.core.bench import plot
from memvault.core.bench.report import latest, report_folder
from memvault.core.vocabulary.errors import MemvaultError
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.progress import run_long
from memvault.desktop.gui.readable_style import blend, dark

EMPTY = (
    "No benchmark report yet.\n\nRun one to see how memvault compares with no memory and with a "
    "native-memory stand-in on a fictional data set: answer quality, tokens handed over, latency, "
    "privacy leaks. It takes a few minutes and touches none of your memories."
)


IMAGE_LINE = re.compile(r"^!\[[^\]]*\]\([^)]*\)\s*$", re.MULTILINE)  # the report's link to its plot


def plot_colours(palette: QPalette) -> plot.Colours:
    """A plot in the window's colours: the page shows through, words in its text colour, lines between the text
    and the window, the conditions in the variant made for a light or a dark page."""
    text, window = palette.color(QPalette.ColorRole.WindowText), palette.color(QPalette.ColorRole.Window)
    return replace(
        plot.DARK if dark(palette) else plot.LIGHT,
        background="none",
        text=text.name(),
        grid=blend(text, window, 0.15).name(),
        frame=blend(text, window, 0.45).name(),
    )


class AspectSvg(QWidget):
    """An SVG drawn at its own proportions, as large as fits and centred (QSvgWidget stretches it to the widget);
    a benchmark plot in the palette's colours (`plot.themed`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.renderer = QSvgRenderer(self)
        self.renderer.repaintNeeded.connect(self.update)
        self.svg = ""
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def load(self, svg: bytes) -> None:
        self.svg = svg.decode("utf-8", errors="replace")
        self._render()

    def _render(self) -> None:
        self.renderer.load(plot.themed(self.svg, plot_colours(self.palette())).encode("utf-8"))
        self.updateGeometry()
        self.update()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self.svg:
            self._render()

    def natural(self) -> QSize:
        size = self.renderer.defaultSize()
        return size if size.width() > 0 and size.height() > 0 else QSize(4, 3)

    def target(self) -> QRectF:
        """Where the picture goes: the widget's rect shrunk to the picture's aspect ratio, centred."""
        natural, room = self.natural(), QRectF(self.rect())
        scale = min(room.width() / natural.width(), room.height() / natural.height())
        width, height = natural.width() * scale, natural.height() * scale
        return QRectF(room.center().x() - width / 2, room.center().y() - height / 2, width, height)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        natural = self.natural()
        return round(width * natural.height() / natural.width())

    def sizeHint(self) -> QSize:
        return self.natural()

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.renderer.isValid():
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.renderer.render(painter, self.target())
        painter.end()


def read_latest(home: Path) -> dict[str, str]:
    """The newest report's Markdown and SVG text ({} when there is none)."""
    found = latest(report_folder(home))
    if found is None:
        return {}
    return {kind: found[kind].read_text(encoding="utf-8") for kind in ("markdown", "plot") if kind in found}


class BenchmarkView(QWidget):
    def __init__(self, ops: Operations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.suite = QComboBox()
        self.suite.setAccessibleName("Benchmark suite")
        self.suite.addItem("small (two questions of each kind)", "small")
        self.suite.addItem("full (every question)", "full")
        self.run_button = QPushButton("&Run the benchmark")
        self.run_button.clicked.connect(self.run_benchmark)
        self.message = QLabel(EMPTY)
        self.message.setWordWrap(True)
        self.text = QTextBrowser()
        self.text.setAccessibleName("Benchmark report")
        self.plot = AspectSvg()
        self.plot.setAccessibleName("Benchmark plot: quality against tokens and latency")
        row = QHBoxLayout()
        suite_label = QLabel("&Suite:")
        suite_label.setBuddy(self.suite)
        row.addWidget(suite_label)
        row.addWidget(self.suite)
        row.addWidget(self.run_button)
        row.addStretch(1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.text)
        splitter.addWidget(self.plot)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([500, 500])
        splitter.setChildrenCollapsible(False)
        self.plot.setMinimumHeight(self.fontMetrics().height() * 10)  # the figure's words stay legible
        column = QVBoxLayout(self)
        column.addLayout(row)
        column.addWidget(self.message)
        column.addWidget(splitter, 1)
        self.reload()

    def reload(self) -> None:
        self.ops.run(lambda v: read_latest(v.paths.home), self._show, self._refused)

    def _show(self, report: dict[str, str]) -> None:
        self.text.setMarkdown(IMAGE_LINE.sub("", report.get("markdown", "")))  # the plot has its own pane
        self.plot.load(report.get("plot", "").encode("utf-8"))
        self.plot.setVisible("plot" in report)
        self.text.setVisible(bool(report))
        self.message.setText("" if report else EMPTY)

    def run_benchmark(self) -> None:
        from memvault.mcp_bridge.tools.benchmark import memory_benchmark  # noqa: PLC0415 - loads the MCP SDK

        suite, caller = self.suite.currentData(), self.ops.caller
        self.run_button.setEnabled(False)

        def done(result: dict[str, Any]) -> None:
            self.run_button.setEnabled(True)
            self.message.setText(f"Finished in {result.get('run_seconds', 0):.0f} s.")
            self.reload()

        run_long(
            self.ops,
            self,
            "Running the memory benchmark (minutes)…",
            lambda v: memory_benchmark(v, caller, suite),
            done,
            self._refused,
        )

    def _refused(self, error: MemvaultError) -> None:
        self.run_button.setEnabled(True)
        self.message.setText(error.message)
