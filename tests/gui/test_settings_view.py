"""Settings rendered from core/runtime/settings.py: every declared setting has an editor that writes the store;
tokens are shown once and revoked; a backup is taken; the doctor's findings are listed; autostart
writes and removes its entry; domains are renamed, pinned and merged."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QComboBox, QDoubleSpinBox
from pytestqt.qtbot import QtBot
from shellkit import Seeded

from memvault.core.runtime.settings import SETTINGS
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from memvault.desktop import autostart
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.windows.domains import DomainsView
from memvault.desktop.gui.windows.settings import SettingsView


def open_settings(qtbot: QtBot, ops: Operations) -> SettingsView:
    view = SettingsView(ops)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: view.form.editors["write_mode"][1]() == "review-before-write", timeout=10000)
    return view


def test_every_declared_setting_has_an_editor(qtbot: QtBot, ops: Operations) -> None:
    view = open_settings(qtbot, ops)
    assert set(view.form.editors) | set(view.advanced.editors) == set(SETTINGS)


def test_choosing_a_write_mode_and_a_kill_switch_writes_the_store(qtbot: QtBot, ops: Operations, vault: Vault) -> None:
    view = open_settings(qtbot, ops)
    mode = view.form.editors["write_mode"][0]
    assert isinstance(mode, QComboBox)
    mode.setCurrentText("automatic-write-within-approved-scope")
    qtbot.waitUntil(lambda: vault.get_setting("write_mode") == "automatic-write-within-approved-scope", timeout=10000)
    switch = view.form.editors["kill_switch"][0]
    assert isinstance(switch, QComboBox)
    switch.setCurrentText("remote")
    qtbot.waitUntil(lambda: vault.get_setting("kill_switch") == "remote", timeout=10000)


def test_a_number_out_of_bounds_cannot_be_entered(qtbot: QtBot, ops: Operations, vault: Vault) -> None:
    view = open_settings(qtbot, ops)
    spin = view.form.editors["auto_write_min_confidence"][0]
    assert isinstance(spin, QDoubleSpinBox)
    spin.setValue(7)  # the editor holds the declared bounds
    qtbot.waitUntil(lambda: vault.get_setting("auto_write_min_confidence") == 1.0, timeout=10000)


def test_a_token_is_shown_once_and_revoked(qtbot: QtBot, ops: Operations, vault: Vault) -> None:
    view = open_settings(qtbot, ops)
    tokens = view.tokens
    tokens.name.setText("laptop-chat")
    tokens.create_token()
    qtbot.waitUntil(lambda: tokens.token.text().startswith("mvt_"), timeout=10000)
    assert vault.authenticate(tokens.token.text()) is not None
    qtbot.waitUntil(lambda: tokens.table.row_count() == 1, timeout=10000)
    tokens.table.selectRow(0)
    tokens.revoke()
    qtbot.waitUntil(lambda: "Revoked laptop-chat" in tokens.message.text(), timeout=10000)
    assert vault.authenticate(tokens.token.text()) is None


def test_back_up_now_and_the_doctor(qtbot: QtBot, ops: Operations, vault: Vault) -> None:
    view = open_settings(qtbot, ops)
    view.backups.backup_now()
    qtbot.waitUntil(lambda: "Backed up to" in view.backups.message.text(), timeout=30000)
    assert len(vault.list_backups(OWNER)) == 1
    qtbot.waitUntil(lambda: view.backups.table.row_count() == 1, timeout=10000)
    qtbot.waitUntil(lambda: view.doctor.table.row_count() > 3, timeout=30000)
    names = {view.doctor.table.text(r, 0) for r in range(view.doctor.table.row_count())}
    assert {"permissions", "store", "integrity"} <= names


def test_the_autostart_toggle_writes_and_removes_the_entry(
    qtbot: QtBot, ops: Operations, memvault_on_path: None
) -> None:
    view = open_settings(qtbot, ops)
    view.system.autostart.setChecked(True)
    qtbot.waitUntil(autostart.autostart_path().exists, timeout=10000)
    assert "app --minimized" in autostart.autostart_path().read_text()
    view.system.autostart.setChecked(False)
    qtbot.waitUntil(lambda: not autostart.autostart_path().exists(), timeout=10000)


def test_domains_are_renamed_pinned_and_merged(qtbot: QtBot, ops: Operations, vault: Vault, seeded: Seeded) -> None:
    view = DomainsView(ops)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: view.table.row_count() == 3, timeout=10000)
    names = [d["name"] for d in view.domains]
    view.table.selectRow(names.index("routine"))
    view.name_edit.setText("daily-life")
    view.rename()
    qtbot.waitUntil(lambda: "daily-life" in [d["name"] for d in view.domains], timeout=10000)
    assert vault.get(OWNER, seeded.records["bike"])["memory"]["domain"] == "daily-life"
    view.table.selectRow([d["name"] for d in view.domains].index("food"))
    view.toggle_pin()
    qtbot.waitUntil(lambda: any(d["pinned"] for d in view.domains), timeout=10000)
    view.table.clearSelection()
    for name in ("daily-life", "pottery"):
        row = [d["name"] for d in view.domains].index(name)
        view.table.selectionModel().select(
            view.table.model().index(row, 0),
            view.table.selectionModel().SelectionFlag.Select | view.table.selectionModel().SelectionFlag.Rows,
        )
    view.name_edit.setText("studio")
    view.merge()
    qtbot.waitUntil(lambda: "Merged" in view.message.text(), timeout=10000)
    qtbot.waitUntil(lambda: "studio" in [d["name"] for d in view.domains], timeout=10000)
    assert vault.get(OWNER, seeded.records["glaze"])["memory"]["domain"] == "studio"


def test_the_launcher_entry_has_an_icon(tmp_path: Path) -> None:
    entry = autostart.install_launcher("/opt/memvault/bin/memvault")
    assert "Exec=/opt/memvault/bin/memvault app" in entry.read_text()
    assert autostart.icon_target().read_text().startswith("<svg")


def test_the_store_section_says_where_the_store_lives(qtbot: QtBot, ops: Operations, vault: Vault) -> None:
    view = open_settings(qtbot, ops)
    qtbot.waitUntil(lambda: bool(view.store.message.text()))
    assert view.store.message.text() == f"On this computer only: an encrypted SQLCipher file, {vault.paths.store}."
