"""Start the tray at login, and the launcher entry with its icon.

Linux: a freedesktop autostart entry (`~/.config/autostart/memvault.desktop`) and a launcher
(`~/.local/share/applications/memvault.desktop`) with the icon in the hicolor theme. macOS: a
LaunchAgent plist. Windows: a value under the Run key. `memvault uninstall` removes them all
(core/maintenance/uninstall.py looks for the same names).
"""

from __future__ import annotations

import contextlib
import plistlib
import shlex
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import platformdirs

from memvault.desktop.clients import memvault_executable, write_atomically

ENTRY_NAME = "memvault.desktop"
LAUNCH_AGENT = "org.memvault.tray.plist"
LAUNCH_AGENT_LABEL = "org.memvault.tray"
RUN_VALUE = "memvault"
RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"


def desktop_entry(executable: str, *, autostart: bool) -> str:
    """The freedesktop entry that starts `memvault app` (the tray and, at login, no window)."""
    command = f"{shlex.quote(executable)} app" + (" --minimized" if autostart else "")
    lines = [
        "[Desktop Entry]",
        "Type=Application",
        "Name=memvault",
        "GenericName=Private memory for AI assistants",
        "Comment=Browse, approve and control what your assistants remember",
        f"Exec={command}",
        "Icon=memvault",
        "Terminal=false",
        "Categories=Utility;Security;",
        "StartupNotify=false" if autostart else "StartupNotify=true",
    ]
    if autostart:
        lines.append("X-GNOME-Autostart-enabled=true")
    return "\n".join(lines) + "\n"


def launch_agent(executable: str) -> bytes:
    """The macOS LaunchAgent (XML plist) that starts `memvault app --minimized` at login."""
    agent = {"Label": LAUNCH_AGENT_LABEL, "ProgramArguments": [executable, "app", "--minimized"], "RunAtLoad": True}
    return plistlib.dumps(agent)


def run_command(executable: str) -> str:
    """The command line the Windows Run value holds (quoted as Windows' own parser splits it)."""
    return subprocess.list2cmdline([executable, "app", "--minimized"])


def autostart_path() -> Path:
    if sys.platform == "darwin":
        return Path.home() / "Library" / "LaunchAgents" / LAUNCH_AGENT
    return Path(platformdirs.user_config_dir()) / "autostart" / ENTRY_NAME


def launcher_path() -> Path:
    return Path(platformdirs.user_data_dir()) / "applications" / ENTRY_NAME


def icon_target() -> Path:
    return Path(platformdirs.user_data_dir()) / "icons" / "hicolor" / "scalable" / "apps" / "memvault.svg"


def is_enabled() -> bool:
    if sys.platform == "win32":
        return _run_key_value() is not None
    return autostart_path().exists()


def enable(executable: str | None = None) -> Path | str:
    """Start the tray at login; returns where that is recorded (written whole: a session starting meanwhile
    never reads half an entry)."""
    program = executable or memvault_executable()
    if sys.platform == "win32":
        _set_run_key(run_command(program))
        return rf"HKCU\{RUN_KEY}\{RUN_VALUE}"
    target = autostart_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    if sys.platform == "darwin":
        write_atomically(target, launch_agent(program).decode())
    else:
        write_atomically(target, desktop_entry(program, autostart=True))
    return target


def disable() -> None:
    if sys.platform == "win32":
        _set_run_key(None)
        return
    autostart_path().unlink(missing_ok=True)


def install_launcher(executable: str | None = None) -> Path:
    """The applications-menu entry and its icon (freedesktop desktops)."""
    icon = icon_target()
    icon.parent.mkdir(parents=True, exist_ok=True)
    with resources.as_file(resources.files("memvault.resources").joinpath("icons", "memvault.svg")) as source:
        shutil.copyfile(source, icon)
    target = launcher_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(target, desktop_entry(executable or memvault_executable(), autostart=False))
    return target


def _run_key_value() -> str | None:
    if sys.platform != "win32":
        return None
    import winreg  # noqa: PLC0415 - Windows only

    try:
        with winreg.OpenKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
            return str(winreg.QueryValueEx(key, RUN_VALUE)[0])
    except OSError:
        return None


def _set_run_key(command: str | None) -> None:
    if sys.platform != "win32":
        return
    import winreg  # noqa: PLC0415 - Windows only

    with winreg.CreateKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
        if command is None:
            with contextlib.suppress(OSError):
                winreg.DeleteValue(key, RUN_VALUE)
        else:
            winreg.SetValueEx(key, RUN_VALUE, 0, winreg.REG_SZ, command)
