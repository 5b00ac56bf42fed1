"""The tray's kill switch: its menu sets this machine's position; on a home using a shared store a
second menu (and a second editor in Settings) sets the store-wide one. The icon shows the position in
force and the tooltip which position holds it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from memvault.core.security.kill_switch import machine_file, write_machine
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER, KillSwitch
from memvault.desktop.commands.setup import create_store
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.tray import Tray
from memvault.desktop.gui.windows.settings import SettingsForm
from tests.store.conftest import postgres_server, postgres_url  # noqa: F401 - the shared store's fixtures


def opened_tray(qtbot: QtBot, ops: Operations) -> Tray:
    tray = Tray(ops)
    qtbot.waitUntil(lambda: tray.pending >= 0, timeout=10000)
    return tray


def test_the_tray_menu_sets_this_machines_position(qtbot: QtBot, ops: Operations, vault: Vault) -> None:
    tray = opened_tray(qtbot, ops)
    assert tray.store_kill_menu is None  # no other machine uses this store: one position
    tray.kill_actions["all"].trigger()
    qtbot.waitUntil(lambda: machine_file(vault.paths).is_file(), timeout=10000)
    assert machine_file(vault.paths).read_text("utf-8") == "all\n"
    qtbot.waitUntil(lambda: "stop everything (this machine and store-wide)" in tray.icon.toolTip(), timeout=10000)
    tray.kill_actions["off"].trigger()
    qtbot.waitUntil(lambda: tray.kill_switch.in_force is KillSwitch.OFF, timeout=10000)
    assert machine_file(vault.paths).read_text("utf-8") == "off\n"


def test_the_tray_notices_this_machines_position_set_elsewhere(qtbot: QtBot, ops: Operations, vault: Vault) -> None:
    tray = opened_tray(qtbot, ops)
    write_machine(vault.paths, KillSwitch.REMOTE)  # as `memvault kill-switch on` does on a shared store: no event
    tray.request_timer.timeout.emit()
    qtbot.waitUntil(tray.kill_actions["remote"].isChecked, timeout=10000)
    assert "kill switch: stop remote calls (this machine)" in tray.icon.toolTip()


@pytest.fixture
def shared_ops(tmp_path: Path, postgres_url: str, qtbot: QtBot) -> Iterator[tuple[Operations, Vault]]:  # noqa: F811
    """The person's app on a laptop, and a second machine's vault on the same PostgreSQL store."""
    create_store(str(tmp_path / "laptop"), postgres_url)
    create_store(str(tmp_path / "desktop"), postgres_url)
    with Vault.open(tmp_path / "laptop") as laptop, Vault.open(tmp_path / "desktop") as desktop:
        operations = Operations(laptop)
        yield operations, desktop
        operations.shutdown()


def test_on_a_shared_store_a_second_menu_sets_the_store_wide_position(
    qtbot: QtBot, shared_ops: tuple[Operations, Vault]
) -> None:
    ops, desktop = shared_ops
    tray = opened_tray(qtbot, ops)
    assert tray.store_kill_menu is not None and tray.kill_menu.title() == "Kill switch on this machine"
    tray.kill_actions["all"].trigger()
    qtbot.waitUntil(lambda: tray.kill_switch.machine is KillSwitch.ALL, timeout=10000)
    assert "stop everything (this machine)" in tray.icon.toolTip()
    assert desktop.status(OWNER)["kill_switch"] == "off"  # the other machine still answers
    tray.kill_actions["off"].trigger()
    tray.store_kill_actions["remote"].trigger()
    qtbot.waitUntil(lambda: desktop.get_setting("kill_switch") == "remote", timeout=10000)
    qtbot.waitUntil(lambda: "stop remote calls (store-wide)" in tray.icon.toolTip(), timeout=10000)
    assert tray.kill_actions["off"].isChecked() and tray.store_kill_actions["remote"].isChecked()
    assert machine_file(ops.vault.paths).read_text("utf-8") == "off\n"


def test_settings_on_a_shared_store_edit_both_positions(qtbot: QtBot, shared_ops: tuple[Operations, Vault]) -> None:
    ops, desktop = shared_ops
    form = SettingsForm(ops, "Assistants and the store", ["write_mode", "kill_switch"])
    qtbot.addWidget(form)
    assert form.store_wide is not None
    machine, store_wide = form.editors["kill_switch"][0], form.store_wide[0]
    assert isinstance(machine, QComboBox) and isinstance(store_wide, QComboBox)
    qtbot.waitUntil(lambda: form.editors["write_mode"][1]() == "review-before-write", timeout=10000)
    store_wide.setCurrentText("all")
    qtbot.waitUntil(lambda: desktop.get_setting("kill_switch") == "all", timeout=10000)
    machine.setCurrentText("remote")
    qtbot.waitUntil(lambda: ops.vault.kill_switch().machine is KillSwitch.REMOTE, timeout=10000)
    assert desktop.kill_switch().machine is KillSwitch.OFF  # the other machine's own position is its own
