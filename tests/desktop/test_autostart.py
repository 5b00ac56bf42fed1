"""Autostart and the launcher entry: written where the desktop looks, removed by `memvault uninstall`."""

from __future__ import annotations

import plistlib
import stat
import sys
from pathlib import Path

import pytest

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


# macOS and Windows: what would be written, checked here without those systems (sys.platform is
# switched for the call; the Windows registry write is replaced by a recorder).
MAC_APP = "/Applications/memvault.app/Contents/MacOS/memvault"
WINDOWS_EXE = r"C:\Program Files\memvault\memvault.exe"


def test_the_launch_agent_starts_the_tray_minimized_at_login() -> None:
    agent = plistlib.loads(autostart.launch_agent(MAC_APP))
    assert agent == {
        "Label": "org.memvault.tray",
        "ProgramArguments": [MAC_APP, "app", "--minimized"],
        "RunAtLoad": True,
    }
    assert f"{agent['Label']}.plist" == autostart.LAUNCH_AGENT  # launchd's convention: the file is named by the label
    assert autostart.launch_agent(MAC_APP).startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist')


def test_on_macos_enable_writes_the_launch_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "darwin")
    target = autostart.enable(MAC_APP)
    assert target == tmp_path / "Library" / "LaunchAgents" / "org.memvault.tray.plist"
    assert Path(target).read_bytes() == autostart.launch_agent(MAC_APP)
    assert stat.S_IMODE(Path(target).stat().st_mode) == 0o600  # launchd refuses an agent others may write
    assert autostart.is_enabled()
    autostart.disable()
    assert not autostart.is_enabled() and not Path(target).exists()


def test_the_run_value_is_a_command_line_windows_splits_back() -> None:
    assert autostart.run_command(WINDOWS_EXE) == r'"C:\Program Files\memvault\memvault.exe" app --minimized'
    assert autostart.run_command(r"C:\memvault\memvault.exe") == r"C:\memvault\memvault.exe app --minimized"


def test_on_windows_enable_sets_the_run_value_and_disable_removes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str | None] = []
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(autostart, "_set_run_key", written.append)
    monkeypatch.setattr(autostart, "_run_key_value", lambda: written[-1] if written else None)
    assert not autostart.is_enabled()
    where = autostart.enable(WINDOWS_EXE)
    assert where == r"HKCU\Software\Microsoft\Windows\CurrentVersion\Run\memvault"
    assert written == [r'"C:\Program Files\memvault\memvault.exe" app --minimized']
    assert autostart.is_enabled()
    autostart.disable()
    assert written[-1] is None and not autostart.is_enabled()
