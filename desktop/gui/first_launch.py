"""The app's first launch: the wizard's choices carried out, and the new store's recovery key shown once.

Loaded only when no store exists yet; it does what `memvault init`, `memvault demo` and
`memvault install` do, through the same code.
"""

from __future__ import annotations

import subprocess

from memvault.core.runtime.paths import VaultPaths, demo_home
from memvault.core.security import keys
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.model import OWNER
from memvault.desktop import clients
from memvault.desktop.gui.windows.first_run import FirstRunChoices, FirstRunWizard
from memvault.desktop.gui.windows.recovery_key_dialog import RecoveryKeyDialog
from memvault.desktop.self_command import this_memvault


def first_run(paths: VaultPaths) -> Vault | None:
    """The first-run wizard, then its choices carried out; None when cancelled."""
    wizard = FirstRunWizard(needs_passphrase=keys.new_store_needs_passphrase())
    if not wizard.exec():
        return None
    choices = wizard.choices()
    if choices.demo:
        return open_demo()
    vault = Vault.open(paths.home, create=True, passphrase=choices.passphrase)
    show_recovery_key(vault)
    apply_choices(vault, choices)
    return vault


def show_recovery_key(vault: Vault) -> None:
    """The recovery key made with the new store's key, once; the dialog stays until the person confirms."""
    key = keys.take_new_recovery_key(vault.paths.key_file)
    if key:
        RecoveryKeyDialog(key).exec()


def apply_choices(vault: Vault, choices: FirstRunChoices) -> list[str]:
    """The write mode, then each assistant registered (the same code as `memvault install`)."""
    vault.set_setting(OWNER, "write_mode", choices.write_mode)
    notes = []
    for client in choices.connect:
        try:
            notes += clients.install(client, home=vault.paths.home).notes
        except MemvaultError as exc:
            notes.append(f"{client}: {exc.message}")
    return notes


def open_demo() -> Vault:
    """The fictional demo store, loaded first if needed (the same code as `memvault demo`)."""
    home = demo_home()
    subprocess.run(
        [*this_memvault(), "demo", "--home", str(home)],  # a desktop bundle is its own executable
        check=True,
        capture_output=True,
        timeout=600,
    )
    return Vault.open(home)
