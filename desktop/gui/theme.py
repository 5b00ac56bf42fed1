"""Light and dark palettes, and the app icon.

The app follows the system's colour scheme (Qt's style hints); where the platform gives a light
palette while the system asks for dark (e.g. plain X11 without a platform theme), a dark Fusion
palette is applied. Sizes come from the font, never fixed pixels, so 200 % stays readable.
"""

from __future__ import annotations

from importlib import resources

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from memvault.desktop.gui.readable_style import ReadableStyle

_DARK = {
    QPalette.ColorRole.Window: "#202326",
    QPalette.ColorRole.WindowText: "#e8e8e8",
    QPalette.ColorRole.Base: "#17191b",
    QPalette.ColorRole.AlternateBase: "#25292c",
    QPalette.ColorRole.ToolTipBase: "#2b2f33",
    QPalette.ColorRole.ToolTipText: "#e8e8e8",
    QPalette.ColorRole.PlaceholderText: "#9a9fa4",
    QPalette.ColorRole.Text: "#e8e8e8",
    QPalette.ColorRole.Button: "#30353a",
    QPalette.ColorRole.ButtonText: "#e8e8e8",
    QPalette.ColorRole.BrightText: "#ff6b6b",
    QPalette.ColorRole.Link: "#7cb7ff",
    QPalette.ColorRole.LinkVisited: "#b89cff",
    QPalette.ColorRole.Highlight: "#3d6ea5",
    QPalette.ColorRole.HighlightedText: "#ffffff",
    # Bevels and the timeline's superseded bars: shades of the window, not the light palette's greys.
    QPalette.ColorRole.Light: "#4a5056",
    QPalette.ColorRole.Midlight: "#3a3f44",
    QPalette.ColorRole.Mid: "#6b7278",
    QPalette.ColorRole.Dark: "#141618",
    QPalette.ColorRole.Shadow: "#000000",
}


def icon_path() -> str:
    return str(resources.files("memvault.resources").joinpath("icons", "memvault.svg"))


def app_icon() -> QIcon:
    return QIcon(icon_path())


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in _DARK.items():
        palette.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7f84"))
    return palette


def apply_scheme(app: QApplication, scheme: Qt.ColorScheme | None = None) -> None:
    """Use the system's scheme (or the one given): Fusion (with readable indicators and focus rings,
    readable_style.py) and a dark palette when dark is asked."""
    wanted = scheme if scheme is not None else QGuiApplication.styleHints().colorScheme()
    if not isinstance(app.style(), ReadableStyle):
        app.setStyle(ReadableStyle())
    if wanted == Qt.ColorScheme.Dark:
        app.setPalette(dark_palette())
    else:
        app.setPalette(app.style().standardPalette())


def follow_system(app: QApplication) -> None:
    """Apply the system scheme now and whenever it changes."""
    apply_scheme(app)
    QGuiApplication.styleHints().colorSchemeChanged.connect(lambda scheme: apply_scheme(app, scheme))
