"""The new store's recovery key, shown once at first run (as `memvault init` prints it).

The key is never stored: this dialog is the only time the person sees it. It can be copied, and
the dialog closes only once the person confirms they wrote it down (or stored it elsewhere).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memvault.desktop.gui.theme import app_icon

EXPLAIN = (
    "<h3>Your recovery key</h3>"
    "<p><b>This is the only time memvault shows it.</b> Print it or write it down, and keep it away from "
    "this computer.</p>"
    "<p>With a backup (its <tt>.db</tt> and <tt>.db-keys</tt> files) and this key, your memory opens on a "
    "new machine, even if this computer's keyring or your passphrase is lost "
    "(<tt>memvault restore BACKUP</tt>).</p>"
)


def _shown(key: str) -> str:
    """The key on two lines of four groups, as `memvault init` prints it."""
    groups = key.split("-")
    return "-".join(groups[:4]) + "\n" + "-".join(groups[4:])


class RecoveryKeyDialog(QDialog):
    def __init__(self, key: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key
        self.setWindowTitle("Your recovery key")
        self.setWindowIcon(app_icon())
        intro = QLabel(EXPLAIN)
        intro.setWordWrap(True)
        self.shown = QLabel(_shown(key))
        self.shown.setAccessibleName("Recovery key")
        font = QFont("monospace")
        font.setStyleHint(QFont.StyleHint.Monospace)
        font.setPointSizeF(font.pointSizeF() * 1.5)
        self.shown.setFont(font)
        self.shown.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy = QPushButton("&Copy")
        self.copy.setToolTip("Put the recovery key on the clipboard (paste it into your password manager)")
        self.copy.clicked.connect(self.copy_key)
        self.confirm = QCheckBox("I &wrote it down (or stored it somewhere safe)")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setEnabled(False)
        self.confirm.toggled.connect(self.ok.setEnabled)
        self.buttons.accepted.connect(self.accept)
        key_row = QHBoxLayout()
        key_row.addWidget(self.shown, 1)
        key_row.addWidget(self.copy)
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * 70)  # the explanation in a few lines
        column = QVBoxLayout(self)
        column.addWidget(intro)
        column.addLayout(key_row)
        column.addWidget(self.confirm)
        column.addWidget(self.buttons)

    def copy_key(self) -> None:
        QGuiApplication.clipboard().setText(self.key)
        self.copy.setText("&Copied")

    def reject(self) -> None:
        """Escape or the window's close button: only once the person confirmed."""
        if self.confirm.isChecked():
            super().reject()
