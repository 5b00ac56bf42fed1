"""Autostart and the launcher entry: written where the desktop looks, removed by `memvault uninstall`."""

from __future__ import annotations

from pathlib import Path

from memvault.core.maintenance import uninstall
from memvault.core.runtime.paths import VaultPaths
from memvault.desktop import autostart

ROOT = Path(__file__).resolve().parents[2]


def test_enable_disable_and_uninstall_removes_every_entry(home: Path) -> None:
    assert not autostart.is_enabled()
    entry = autostart.enable("/opt/memvault/bin/memvault")
    assert autostart.is_enabled()
    text = Path(entry).read_text()
    assert "Exec=/opt/memvault/bin/memvault app --minimized" in text and "Icon=memvault" in text
    autostart.disable()
    assert not autostart.is_enabled()
    autostart.enable("/opt/memvault/bin/memvault")
    launcher = autostart.install_launcher("/opt/memvault/bin/memvault")
    removals, _ = uninstall.plan(VaultPaths.from_env(home), delete_data=False)
    planned = {removal.path for removal in removals}
    assert {autostart.autostart_path(), launcher, autostart.icon_target()} <= planned
    uninstall.apply(VaultPaths.from_env(home), removals, delete_data=False)
    assert not autostart.autostart_path().exists() and not launcher.exists() and not autostart.icon_target().exists()


def test_the_packaged_entry_is_the_one_memvault_writes() -> None:
    packaged = (ROOT / "packaging" / "linux" / "memvault.desktop").read_text()
    assert packaged == autostart.desktop_entry("memvault", autostart=False)
