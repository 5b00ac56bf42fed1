"""First run: what stays local, the store (or the fictional demo), the write mode, the assistants.

The wizard only gathers choices; the app carries them out (desktop/gui/app.py) through the same
code as `memvault init`, `memvault demo` and `memvault install`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from memvault.core.vocabulary.model import WriteMode
from memvault.desktop.clients import CLIENTS
from memvault.desktop.gui.theme import app_icon

PRIVACY_TEXT = (
    "<p><b>What stays on this computer:</b> every memory, in one encrypted file. Its key is kept in "
    "your system's keyring (or locked with a passphrase you choose). Search, embeddings and the "
    "approval inbox all run here; memvault never calls a server of its own.</p>"
    "<p><b>What may leave:</b> only what an assistant you connect asks for. A local assistant "
    "(Codex, Claude) receives the memories it searches for, and its own provider may see them. "
    "Remote assistants reach memvault only with a token you create, and only records you mark "
    "as shareable. The kill switch in the tray stops them all at once.</p>"
)
WRITE_MODES = (
    (WriteMode.REVIEW_BEFORE_WRITE.value, "Review before write (recommended)", "Assistants propose; you approve."),
    (WriteMode.RETRIEVAL_ONLY.value, "Read only", "Assistants may search, never write."),
    (WriteMode.AUTOMATIC.value, "Automatic within approved scope", "Confident, non-sensitive writes go in."),
)


@dataclass
class FirstRunChoices:
    demo: bool = False
    passphrase: str | None = None
    write_mode: str = WriteMode.REVIEW_BEFORE_WRITE.value
    connect: list[str] = field(default_factory=list)


def _text(html: str) -> QLabel:
    label = QLabel(html)
    label.setWordWrap(True)
    return label


class _StorePage(QWizardPage):
    def __init__(self, needs_passphrase: bool) -> None:
        super().__init__()
        self.setTitle("Your store")
        self.needs_passphrase = needs_passphrase
        self.own = QRadioButton("&Create my own encrypted store")
        self.demo = QRadioButton("&Explore the fictional demo store first (separate; nothing of yours goes in)")
        self.own.setChecked(True)
        self.phrase = QLineEdit()
        self.again = QLineEdit()
        for edit, name in ((self.phrase, "Passphrase"), (self.again, "Passphrase again")):
            edit.setEchoMode(QLineEdit.EchoMode.Password)
            edit.setAccessibleName(name)
            edit.textChanged.connect(self.completeChanged)
        self.own.toggled.connect(self.completeChanged)
        column = QVBoxLayout(self)
        column.addWidget(self.own)
        if needs_passphrase:
            column.addWidget(
                _text(
                    "No system keyring is reachable here, so the key is locked with a passphrase "
                    "(at least 8 characters). memvault cannot recover a lost passphrase: the recovery "
                    "key shown once the store exists is then the only other way in."
                )
            )
            form = QFormLayout()
            form.addRow("&Passphrase:", self.phrase)
            form.addRow("&Again:", self.again)
            column.addLayout(form)
        column.addWidget(self.demo)

    def isComplete(self) -> bool:
        if self.demo.isChecked() or not self.needs_passphrase:
            return True
        return len(self.phrase.text()) >= 8 and self.phrase.text() == self.again.text()


class _WriteModePage(QWizardPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle("What may assistants write?")
        self.group = QButtonGroup(self)
        column = QVBoxLayout(self)
        for mode, label, note in WRITE_MODES:
            button = QRadioButton(f"{label} — {note}")
            button.setObjectName(mode)
            button.setChecked(mode == WriteMode.REVIEW_BEFORE_WRITE.value)
            self.group.addButton(button)
            column.addWidget(button)
        column.addWidget(_text("You can change this any time in Settings, or pause writes from the tray."))

    def mode(self) -> str:
        checked = self.group.checkedButton()
        return checked.objectName() if checked else WriteMode.REVIEW_BEFORE_WRITE.value


class _ConnectPage(QWizardPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle("Connect your assistants")
        column = QVBoxLayout(self)
        column.addWidget(
            _text(
                "memvault can register itself with these assistants (you can undo it: "
                "`memvault uninstall codex|claude`)."
            )
        )
        self.checks = {client: QCheckBox(f"Connect {client.capitalize()}") for client in CLIENTS}
        for check in self.checks.values():
            column.addWidget(check)


class FirstRunWizard(QWizard):
    def __init__(self, *, needs_passphrase: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Welcome to memvault")
        self.setWindowIcon(app_icon())
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        welcome = QWizardPage()
        welcome.setTitle("A private memory for your AI assistants")
        QVBoxLayout(welcome).addWidget(_text(PRIVACY_TEXT))
        self.store_page = _StorePage(needs_passphrase)
        self.mode_page = _WriteModePage()
        self.connect_page = _ConnectPage()
        for page in (welcome, self.store_page, self.mode_page, self.connect_page):
            self.addPage(page)

    def choices(self) -> FirstRunChoices:
        store = self.store_page
        return FirstRunChoices(
            demo=store.demo.isChecked(),
            passphrase=store.phrase.text() if store.needs_passphrase and store.own.isChecked() else None,
            write_mode=self.mode_page.mode(),
            connect=[client for client, check in self.connect_page.checks.items() if check.isChecked()],
        )
