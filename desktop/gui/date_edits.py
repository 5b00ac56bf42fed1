"""Date and date-time boxes that Tab leaves.

Qt's date edits spend Tab on moving between their own sections (year, month, day...), and while
they show their special value (the Memories filter's "any") they swallow Tab altogether: a keyboard
user could not get past "Learned since". Here Tab and Shift+Tab move to the next or previous
control, as everywhere else; the sections are reached with the arrow keys or by typing.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QDateEdit, QDateTimeEdit, QWidget

TABS = (Qt.Key.Key_Tab, Qt.Key.Key_Backtab)


def _tabbed(widget: QWidget, event: QKeyEvent) -> bool:
    """Move the focus on for Tab (back for Shift+Tab or Backtab); True when the key was one of those."""
    if event.key() not in TABS or event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier:
        return False
    forward = event.key() == Qt.Key.Key_Tab and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier
    QWidget.focusNextPrevChild(widget, forward)
    event.accept()
    return True


class DateEdit(QDateEdit):
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not _tabbed(self, event):
            super().keyPressEvent(event)


class DateTimeEdit(QDateTimeEdit):
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not _tabbed(self, event):
            super().keyPressEvent(event)
