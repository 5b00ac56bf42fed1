"""The badge's colours read in both palettes: its word on its fill at least 4.5:1 (WCAG AA for text), and the
pill apart from the page and from the window at least 3:1 (WCAG's minimum for what is not text)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from memvault.desktop.gui.badges import badge_colours, badge_html
from memvault.desktop.gui.readable_style import contrast
from memvault.desktop.gui.theme import apply_scheme


@pytest.fixture(params=["light", "dark"])
def palette(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[QPalette]:
    apply_scheme(qapp, Qt.ColorScheme.Dark if request.param == "dark" else Qt.ColorScheme.Light)
    yield QApplication.palette()
    apply_scheme(qapp, Qt.ColorScheme.Light)


def test_the_word_reads_on_the_pill_and_the_pill_stands_out(palette: QPalette) -> None:
    fill, ink = badge_colours(palette)
    assert contrast(ink, fill) >= 4.5
    for page in (QPalette.ColorRole.Base, QPalette.ColorRole.Window):
        assert contrast(fill, palette.color(page)) >= 3.0


def test_the_rich_text_badge_escapes_and_carries_its_colours(palette: QPalette) -> None:
    fill, ink = badge_colours(palette)
    html = badge_html("<b>sensitive</b>", palette, 'health & "beliefs"')
    assert fill.name() in html and ink.name() in html
    assert "&lt;b&gt;sensitive&lt;/b&gt;" in html and 'title="health &amp; &quot;beliefs&quot;"' in html
