"""`memvault app`'s parts: one instance per store, the app hosting the daemon and quitting cleanly,
first-run choices carried out, and the passphrase handed to the key loader for one call only."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import recovery_key
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import NotFound
from memvault.core.vocabulary.model import OWNER, WriteMode
from memvault.desktop.daemon import running_pid
from memvault.desktop.gui import app as app_module
from memvault.desktop.gui import first_launch
from memvault.desktop.gui.app import App, SingleInstance, instance_name, wake_running_instance
from memvault.desktop.gui.first_launch import apply_choices
from memvault.desktop.gui.windows.first_run import FirstRunChoices, FirstRunWizard
from memvault.desktop.gui.windows.recovery_key_dialog import RecoveryKeyDialog


def test_a_second_launch_wakes_the_first(qtbot: QtBot, tmp_path: Path) -> None:
    name = instance_name(tmp_path / "store-a")
    assert name != instance_name(tmp_path / "store-b")
    assert not wake_running_instance(name)
    first = SingleInstance(name)
    with qtbot.waitSignal(first.woken, timeout=5000):
        assert wake_running_instance(name)
    first.server.close()


def test_the_app_serves_assistants_and_quits_cleanly(qtbot: QtBot, qapp: QApplication, home: Path) -> None:
    vault = Vault.open(home)
    app = App(qapp, vault)
    qtbot.addWidget(app.window)
    qtbot.waitUntil(lambda: app.serving, timeout=60000)
    assert app.host is not None
    assert app.host.serving and running_pid(app.host.address) == os.getpid()
    assert app.host.address.socket.exists()
    app.quit()
    assert not app.host.address.socket.exists()
    assert running_pid(app.host.address) is None
    assert not app.window.isVisible()


def test_first_run_preselects_review_before_write_and_applies_the_choices(
    qtbot: QtBot, vault: Vault, memvault_on_path: None
) -> None:
    wizard = FirstRunWizard(needs_passphrase=True)
    qtbot.addWidget(wizard)
    chosen = wizard.choices()
    assert chosen.write_mode == WriteMode.REVIEW_BEFORE_WRITE.value and not chosen.demo and chosen.connect == []
    assert not wizard.store_page.isComplete()  # a passphrase is needed here
    wizard.store_page.phrase.setText("a long fictional phrase")
    wizard.store_page.again.setText("a long fictional phrase")
    assert wizard.store_page.isComplete()
    notes = apply_choices(vault, FirstRunChoices(write_mode=WriteMode.RETRIEVAL_ONLY.value, connect=["claude"]))
    assert vault.get_setting("write_mode") == "retrieval-only"
    assert any("Claude Desktop" in note for note in notes)
    assert (Path.home() / ".claude.json").exists()


def test_a_typed_passphrase_unlocks_the_store_and_is_not_left_in_the_environment(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    phrase = os.environ["MEMVAULT_PASSPHRASE"]
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")
    typed = iter(["not the phrase", phrase])
    monkeypatch.setattr(app_module, "ask_passphrase", lambda *_: next(typed))
    vault = app_module.unlock(VaultPaths.from_env(home))
    assert vault is not None and "MEMVAULT_PASSPHRASE" not in os.environ
    vault.close()
    monkeypatch.setattr(app_module, "ask_passphrase", lambda *_: None)  # the person cancels
    assert app_module.unlock(VaultPaths.from_env(home)) is None


def test_restore_from_a_file_asks_the_passphrase_reopens_the_store_and_serves_again(
    qtbot: QtBot, qapp: QApplication, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = Vault.open(home)
    app = App(qapp, vault)
    qtbot.addWidget(app.window)
    qtbot.waitUntil(lambda: app.serving, timeout=60000)
    assert app.host is not None
    backup = vault.backup(OWNER)["path"]
    added = vault.add(OWNER, Draft(statement="Mara learned to throw a teapot on the wheel", domain="pottery"))["id"]
    phrase = os.environ["MEMVAULT_PASSPHRASE"]
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")  # a passphrase store: the app asks for it in a dialog
    typed = iter(["not the phrase", phrase])
    monkeypatch.setattr(app_module, "ask_passphrase", lambda *_: next(typed))
    app.window.restore_requested.emit(backup)
    qtbot.waitUntil(app.window.problem.isVisible, timeout=30000)
    assert "wrong passphrase" in app.window.problem.text()
    assert app.ops.vault is vault and app.serving and vault.get(OWNER, added)  # nothing stopped or changed
    app.window.problem.hide()
    app.window.restore_requested.emit(backup)
    panel = app.window.page("Settings").backups  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: "Restored and verified" in panel.message.text(), timeout=60000)
    restored = app.ops.vault
    assert restored is not vault
    with pytest.raises(NotFound):
        restored.get(OWNER, added)  # the store is the backup's again
    qtbot.wait(500)  # the views reload from the reopened store: the verification stays on screen
    assert "Restored and verified" in panel.message.text()
    assert app.host.serving and app.host.address.socket.exists()
    assert app.window.current_page() == "Settings"
    qtbot.wait(500)  # views reload from the reopened store; none of them meets a closed one
    assert not app.window.problem.isVisible(), app.window.problem.text()
    app.quit()


def test_first_run_shows_the_new_stores_recovery_key_once(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "a long fictional phrase")
    monkeypatch.setenv("MEMVAULT_KEY_BACKEND", "passphrase")
    shown: list[RecoveryKeyDialog] = []

    def look(dialog: RecoveryKeyDialog) -> int:
        shown.append(dialog)
        dialog.show()
        assert not dialog.ok.isEnabled()  # not before the person confirms
        dialog.reject()  # Escape does not close it either
        assert dialog.isVisible()
        dialog.copy.click()
        assert QApplication.clipboard().text() == dialog.key
        dialog.confirm.setChecked(True)
        assert dialog.ok.isEnabled()
        return 1

    monkeypatch.setattr(RecoveryKeyDialog, "exec", look)
    with Vault.open(tmp_path / "store", create=True) as vault:
        first_launch.show_recovery_key(vault)
        assert len(shown) == 1 and recovery_key.parse(shown[0].key) is not None
        assert shown[0].shown.text().replace("\n", "-") == shown[0].key  # two lines of four groups
        first_launch.show_recovery_key(vault)  # shown once: the key is not kept
        assert len(shown) == 1


def test_the_key_is_derived_on_a_thread_while_the_window_modules_load(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened_on: list[str] = []
    open_vault = Vault.open

    def recording(*args: object, **kwargs: object) -> Vault:
        opened_on.append(threading.current_thread().name)
        return open_vault(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Vault, "open", recording)
    vault = app_module.unlock_while_loading(VaultPaths.from_env(home))
    assert vault is not None
    vault.close()
    assert opened_on[0].startswith("memvault-unlock")
    assert all(module in sys.modules for module in app_module.WINDOW_MODULES)
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")  # a dialog is needed: asked and opened here, on the GUI thread
    monkeypatch.setattr(app_module, "ask_passphrase", lambda *_: None)
    assert app_module.unlock_while_loading(VaultPaths.from_env(home)) is None
    assert len(opened_on) == 1
