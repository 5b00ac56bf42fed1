"""Controls that read in the dark palette: check boxes (the Memories view's "As of", the import dialog's),
radio buttons, text fields, and a focus ring on the control that holds the keyboard focus (a table's too)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QStyle,
    QStyleOptionButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.readable_style import ReadableStyle, accent, contrast
from memvault.desktop.gui.theme import apply_scheme
from memvault.desktop.gui.windows.import_dialog import ImportDialog
from memvault.desktop.gui.windows.memories import MemoriesView


@pytest.fixture(params=["dark", "light"])
def scheme(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    apply_scheme(qapp, Qt.ColorScheme.Dark if request.param == "dark" else Qt.ColorScheme.Light)
    yield request.param
    apply_scheme(qapp, Qt.ColorScheme.Light)


def colours(image: QImage, rect: QRect) -> list[QColor]:
    return [
        image.pixelColor(x, y) for x in range(rect.left(), rect.right() + 1) for y in range(rect.top(), rect.bottom())
    ]


def indicator(box: QCheckBox | QRadioButton) -> tuple[QImage, QRect]:
    option = QStyleOptionButton()
    box.initStyleOption(option)
    element = (
        QStyle.SubElement.SE_CheckBoxIndicator
        if isinstance(box, QCheckBox)
        else QStyle.SubElement.SE_RadioButtonIndicator
    )
    return box.grab().toImage(), box.style().subElementRect(element, option, box)


def window_colour(widget: QWidget) -> QColor:
    return widget.palette().color(QPalette.ColorRole.Window)


def best_contrast(image: QImage, rect: QRect, against: QColor) -> float:
    return max(contrast(colour, against) for colour in colours(image, rect))


def near(one: QColor, other: QColor, slack: int = 24) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(one.getRgb()[:3], other.getRgb()[:3], strict=True))


def test_the_app_style_draws_its_own_indicators(scheme: str, qapp: QApplication) -> None:
    assert isinstance(qapp.style(), ReadableStyle)
    assert (qapp.palette().color(QPalette.ColorRole.Window).lightness() < 128) == (scheme == "dark")


def test_an_unchecked_box_stands_out_from_the_window(qtbot: QtBot, scheme: str, ops: Operations) -> None:
    view = MemoriesView(ops)
    qtbot.addWidget(view)
    view.show()
    box = view.as_of.check
    assert not box.isChecked()
    image, rect = indicator(box)
    assert best_contrast(image, rect, window_colour(box)) >= 3.0  # WCAG's minimum for a control's edge


def test_a_checked_box_is_filled_and_marked(qtbot: QtBot, scheme: str) -> None:
    box = QCheckBox("Known at")
    qtbot.addWidget(box)
    box.setChecked(True)
    box.show()
    image, rect = indicator(box)
    found = colours(image, rect)
    assert any(near(c, accent(box.palette())) for c in found)
    assert any(near(c, box.palette().color(QPalette.ColorRole.HighlightedText)) for c in found)  # the tick
    box.setChecked(False)
    image, rect = indicator(box)
    assert not any(near(c, accent(box.palette()), 8) for c in colours(image, rect))  # unchecked: no fill


def test_the_import_dialogs_boxes_and_a_radio_button_read_in_the_dark(
    qtbot: QtBot, scheme: str, ops: Operations
) -> None:
    dialog = ImportDialog(ops)
    qtbot.addWidget(dialog)
    dialog.show()
    for box in (dialog.weak, dialog.since_on):
        image, rect = indicator(box)
        assert best_contrast(image, rect, window_colour(box)) >= 3.0, box.text()
    radio = QRadioButton("Review before write")
    qtbot.addWidget(radio)
    radio.show()
    image, rect = indicator(radio)
    assert best_contrast(image, rect, window_colour(radio)) >= 3.0


def test_the_focused_control_wears_a_ring(qtbot: QtBot, scheme: str) -> None:
    holder = QWidget()
    qtbot.addWidget(holder)
    column = QVBoxLayout(holder)
    edit, button, other, table = QLineEdit("kitchen"), QPushButton("Run"), QPushButton("Stop"), QTableView()
    for widget in (edit, button, other, table):
        column.addWidget(widget)
    holder.show()
    holder.activateWindow()
    qtbot.waitUntil(holder.isActiveWindow, timeout=5000)
    ring = accent(holder.palette())
    for focused in (button, edit, table):
        focused.setFocus()
        qtbot.waitUntil(focused.hasFocus, timeout=5000)
        edge = QRect(0, 0, focused.width(), 3)
        assert any(near(c, ring, 30) for c in colours(focused.grab().toImage(), edge)), focused
        assert not any(near(c, ring, 30) for c in colours(other.grab().toImage(), QRect(0, 0, other.width(), 3)))
    assert contrast(ring, window_colour(holder)) >= 2.5
