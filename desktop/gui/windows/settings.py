"""Settings, rendered from the one declaration in core/runtime/settings.py, and the panels beside them.

Each declared setting becomes an editor chosen by its type (a choice list, a number within its
bounds, a set of allowed items, a comma list); its description is shown under it. A change is
written at once through the Vault; a value set by an environment variable is shown and locked.
The kill switch's editor sets this machine's position, as the tray's menu does; on a shared store
a second one sets the store-wide position (core/security/kill_switch.py).
While a web assistant's connection request waits, a line at the top of the page says so and leads
to the Connections section (windows/connections.py), which is further down.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from memvault.core.operations.changes import ChangeKind
from memvault.core.runtime.settings import RETRIEVAL_SETTINGS, SETTINGS, Setting
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.oauth import OAuthRequestRow
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.tray import client_name
from memvault.desktop.gui.windows.connections import ConnectionsPanel
from memvault.desktop.gui.windows.settings_panels import (
    BackupsPanel,
    ClientsPanel,
    DoctorPanel,
    StorePanel,
    SystemPanel,
    TokensPanel,
)

Editor = tuple[QWidget, Callable[[], Any], Callable[[Any], None]]  # widget, read, show
Write = Callable[[Vault], Any]

MACHINE_SWITCH_NOTE = (
    "This machine's position (the tray's): off; remote: every remote or workspace call is refused; "
    "all: local MCP calls too."
)
STORE_WIDE = "kill_switch_store_wide"  # its editor's name (no declared setting: the store's `kill_switch`)
STORE_WIDE_NOTE = (
    "The store's position: every machine using this shared store honours it. "
    "The stronger of the two positions is in force."
)


def _choice_editor(declared: Setting) -> Editor:
    combo = QComboBox()
    combo.addItems(list(declared.choices))
    return combo, combo.currentText, lambda value: combo.setCurrentText(str(value))


def _number_editor(declared: Setting) -> Editor:
    spin = QDoubleSpinBox()
    whole = float(declared.default).is_integer() and (declared.maximum or 0) > 5  # counts, budgets, days
    spin.setDecimals(0 if whole else 2)
    spin.setRange(declared.minimum if declared.minimum is not None else -1e9, declared.maximum or 1e9)
    spin.setSingleStep(0.05 if (declared.maximum or 0) <= 5 else 1)
    spin.setKeyboardTracking(False)  # write once the number is typed, not at every digit
    return spin, spin.value, lambda value: spin.setValue(float(value))


def _items_editor(declared: Setting) -> Editor:
    box = QWidget()
    row = QHBoxLayout(box)
    row.setContentsMargins(0, 0, 0, 0)
    checks = {item: QCheckBox(item) for item in declared.item_choices}
    for check in checks.values():
        row.addWidget(check)
    row.addStretch(1)

    def show(value: Any) -> None:
        for item, check in checks.items():
            check.setChecked(item in value)

    return box, lambda: [item for item, check in checks.items() if check.isChecked()], show


def _list_editor(_: Setting) -> Editor:
    edit = QLineEdit()
    edit.setPlaceholderText("comma-separated names (see below for what empty means)")
    return edit, lambda: [p.strip() for p in edit.text().split(",") if p.strip()], lambda v: edit.setText(", ".join(v))


def _bool_editor(_: Setting) -> Editor:
    check = QCheckBox()
    return check, check.isChecked, lambda value: check.setChecked(bool(value))


def make_editor(declared: Setting) -> Editor:
    if declared.choices:
        return _choice_editor(declared)
    if declared.kind is float:
        return _number_editor(declared)
    if declared.kind is list:
        return _items_editor(declared) if declared.item_choices else _list_editor(declared)
    if declared.kind is bool:
        return _bool_editor(declared)
    edit = QLineEdit()
    return edit, edit.text, lambda value: edit.setText(str(value))


def _changed_signal(widget: QWidget) -> list[Any]:
    """The signals that mean "the person changed this editor"."""
    if isinstance(widget, QComboBox):
        return [widget.currentTextChanged]
    if isinstance(widget, QDoubleSpinBox):
        return [widget.valueChanged]
    if isinstance(widget, QLineEdit):
        return [widget.editingFinished]
    if isinstance(widget, QCheckBox):
        return [widget.toggled]
    return [check.toggled for check in widget.findChildren(QCheckBox)]


def _values(vault: Vault) -> dict[str, Any]:
    """Every declared setting as stored, the kill switch's as this machine's position and the store's apart."""
    positions = vault.kill_switch()
    return vault.settings() | {"kill_switch": positions.machine.value, STORE_WIDE: positions.store.value}


def _row(
    form: QFormLayout, declared: Setting, name: str, label: str, description: str, edited: Callable[[], None]
) -> Editor:
    """One editor for `declared` with its description under it; `edited` hears the person's changes."""
    editor = make_editor(declared)
    widget = editor[0]
    widget.setAccessibleName(name)
    widget.setToolTip(description)
    for signal in _changed_signal(widget):
        signal.connect(lambda *_: edited())
    note = QLabel(description)
    note.setWordWrap(True)
    note.setEnabled(False)  # the description reads as secondary text
    cell = QWidget()
    stack = QVBoxLayout(cell)
    stack.setContentsMargins(0, 0, 0, 0)
    stack.addWidget(widget)
    stack.addWidget(note)
    form.addRow(label + ":", cell)
    return editor


class SettingsForm(QGroupBox):
    """One editor per declared setting named in `names`, under `title`."""

    def __init__(self, ops: Operations, title: str, names: list[str], parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.ops = ops
        self.editors: dict[str, Editor] = {}
        self.store_wide: Editor | None = None  # the store-wide kill switch, on a shared store
        self._loading = False
        self.message = QLabel()
        self.message.setWordWrap(True)
        column = QVBoxLayout(self)
        column.addLayout(self._rows(names))
        column.addWidget(self.message)
        ops.changed.connect(self._on_changed)
        self.reload()

    def _rows(self, names: list[str]) -> QFormLayout:
        form = QFormLayout()
        shared = "kill_switch" in names and self.ops.vault.shares_store
        for name in names:
            declared = SETTINGS[name]
            label, description = name.replace("_", " ").capitalize(), declared.description
            if name == "kill_switch":
                label, description = "Kill switch on this machine" if shared else label, MACHINE_SWITCH_NOTE
            self.editors[name] = _row(form, declared, name, label, description, partial(self._edited, name))
            if name == "kill_switch" and shared:
                label = "Kill switch for every machine"
                self.store_wide = _row(form, declared, STORE_WIDE, label, STORE_WIDE_NOTE, self._store_wide_edited)
        return form

    def _on_changed(self, changes: Changes) -> None:
        if changes.touches(ChangeKind.SETTING_CHANGED):
            self.reload()

    def reload(self) -> None:
        self.ops.run(_values, self._show)

    def _show(self, values: dict[str, Any]) -> None:
        self._loading = True
        try:
            if self.store_wide is not None:
                self.store_wide[2](values[STORE_WIDE])
            for name, (widget, _, show) in self.editors.items():
                show(values[name])
                locked = SETTINGS[name].from_env() is not None
                widget.setEnabled(not locked)
                if locked:
                    widget.setToolTip(f"Set by ${SETTINGS[name].env} in this environment")
        finally:
            self._loading = False

    def _edited(self, name: str) -> None:
        if self._loading:
            return
        value = self.editors[name][1]()
        if name == "kill_switch":  # this machine's position, as the tray's menu sets it
            self._write(name, lambda v: v.set_kill_switch(self.ops.caller, value).machine.value)
        else:
            self._write(name, lambda v: v.set_setting(self.ops.caller, name, value))

    def _store_wide_edited(self) -> None:
        if self._loading or self.store_wide is None:
            return
        value = self.store_wide[1]()
        self._write(
            "kill switch for every machine",
            lambda v: v.set_kill_switch(self.ops.caller, value, store_wide=True).store.value,
        )

    def _write(self, what: str, write: Write) -> None:
        self.ops.run(write, lambda saved: self.message.setText(f"{what} = {saved}"), self._refused, writes=True)

    def _refused(self, error: MemvaultError) -> None:
        self.message.setText(error.message)
        self.reload()


class RequestsWaiting(QFrame):
    """The line at the top of Settings while connection requests wait: who asks, and a way to answer."""

    answer_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.text = QLabel()
        self.text.setTextFormat(Qt.TextFormat.PlainText)  # client names are the clients' own
        self.text.setWordWrap(True)
        self.button = QPushButton("&Answer…")
        self.button.setAccessibleName("Go to the connection requests")
        self.button.clicked.connect(self.answer_requested)
        row = QHBoxLayout(self)
        row.addWidget(self.text, 1)
        row.addWidget(self.button)
        self.hide()

    def show_requests(self, waiting: list[OAuthRequestRow]) -> None:
        if not waiting:
            self.hide()
            return
        if len(waiting) == 1:
            self.text.setText(f"{client_name(waiting[0]['client_name'])} asks to connect (code {waiting[0]['id']}).")
        else:
            self.text.setText(f"{len(waiting)} applications ask to connect.")
        self.show()


class SettingsView(QScrollArea):
    """The whole settings page: where the store lives, declared settings, then tokens, connections, clients,
    backups, doctor and system."""

    restore_requested = Signal(str)  # a backup file to restore (the app closes and reopens the store)
    move_requested = Signal(object)  # a StoreMove (windows/move_store.py): the app moves the store

    def __init__(self, ops: Operations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        body = QWidget()
        column = QVBoxLayout(body)
        retrieval = {s.name for s in RETRIEVAL_SETTINGS}
        self.waiting = RequestsWaiting()
        self.waiting.answer_requested.connect(self.show_connections)
        self.form = SettingsForm(ops, "Assistants and the store", [n for n in SETTINGS if n not in retrieval])
        self.advanced = SettingsForm(ops, "Search and ranking (advanced)", [n for n in SETTINGS if n in retrieval])
        self.store = StorePanel(ops)
        self.store.move_requested.connect(self.move_requested)
        self.tokens = TokensPanel(ops)
        self.connections = ConnectionsPanel(ops)
        self.connections.pending_changed.connect(self.waiting.show_requests)
        self.clients = ClientsPanel(ops)
        self.backups = BackupsPanel(ops)
        self.backups.restore_requested.connect(self.restore_requested)
        self.doctor = DoctorPanel(ops)
        self.system = SystemPanel(ops)
        panels: list[QWidget] = [self.waiting, self.store, self.form, self.tokens, self.connections, self.clients]
        for panel in (*panels, self.backups, self.doctor, self.system, self.advanced):
            column.addWidget(panel)
        column.addStretch(1)
        self.setWidget(body)

    def show_connections(self) -> None:
        """Scroll to the Connections section and put the focus in it (its first request, else its list)."""
        self.verticalScrollBar().setValue(self.connections.y() - self.fontMetrics().height())  # its top at the top
        cards = list(self.connections.cards.values())
        target: QWidget = cards[0].approve_button if cards else self.connections.table
        target.setFocus(Qt.FocusReason.OtherFocusReason)
