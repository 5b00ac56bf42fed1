"""The tray in a real X session: `memvault app` under Xvfb with trayer as the system tray.

The icon shows the pending count (an orange badge) and, once the kill switch is engaged, a red
stroke; its menu is driven with xdotool as a person would (right-click, arrow keys, Enter): the kill
switch reaches the store, and Quit ends the app cleanly. Skips where Xvfb, trayer or xdotool are
missing (Debian: xvfb xauth trayer xdotool, see packaging/test.sh).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from shellkit import Seeded

from memvault.core.vault import Vault

TOOLS = ("Xvfb", "trayer", "xdotool")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS), reason="needs Xvfb, trayer and xdotool"),
]
RED, ORANGE = (0xD9, 0x30, 0x25), (0xE8, 0x71, 0x0A)  # the tray icon's kill-switch stroke and badge
# Counts the pixels of the tray icon's window close to each colour (runs as a real X client).
COUNT_COLOURS = f"""
import sys
from PySide6.QtGui import QGuiApplication
app = QGuiApplication(["count"])
image = app.primaryScreen().grabWindow(int(sys.argv[1])).toImage()
def near(c, rgb): return all(abs(a - b) < 40 for a, b in zip((c.red(), c.green(), c.blue()), rgb))
pixels = [image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())]
print(sum(near(c, {RED}) for c in pixels), sum(near(c, {ORANGE}) for c in pixels))
"""


def wait_for(what: str, check: Callable[[], bool], seconds: float = 60) -> None:
    limit = time.monotonic() + seconds
    while not check():
        if time.monotonic() > limit:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


@pytest.fixture
def display(tmp_path: Path) -> Iterator[dict[str, str]]:
    """An X server of its own (the first free display number) with trayer as its system tray."""
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as said:  # Xvfb writes the display number and a newline once it accepts clients
        number = said.readline().strip()
    env = {**os.environ, "DISPLAY": f":{number}", "QT_QPA_PLATFORM": "xcb"}
    tray = None
    try:
        tray = _start_tray(env)  # the tray exists before the app asks
        yield env
    finally:
        for process in (tray, server):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)


def _start_tray(env: dict[str, str], tries: int = 3) -> subprocess.Popen[bytes]:
    """trayer as the system tray; on a loaded machine it sometimes dies at start (X I/O error 11)."""
    for _ in range(tries):
        tray = subprocess.Popen(
            ["trayer", "--edge", "top", "--align", "right", "--width", "10", "--height", "24"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        limit = time.monotonic() + 20
        while tray.poll() is None and time.monotonic() < limit:
            if _panel_shown(env):
                return tray
            time.sleep(0.2)
        tray.terminate()
        tray.wait(timeout=10)
    raise AssertionError(f"trayer's panel did not appear in {tries} starts")


def _panel_shown(env: dict[str, str]) -> bool:
    found = subprocess.run(["xdotool", "search", "--name", "panel"], env=env, capture_output=True, check=False)
    return bool(found.stdout.strip())


class RunningApp:
    def __init__(self, home: Path, env: dict[str, str], log: Path) -> None:
        self.env, self.log = env, log
        command = [sys.executable, "-m", "memvault.desktop.cli", "--home", str(home), "-v", "app"]
        with log.open("w") as err:
            self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err)

    def said(self, text: str) -> bool:
        return text in self.log.read_text()

    def run(self, *command: str, check: bool = True) -> str:
        """A command against this X server (xdotool, or a Python snippet as an X client): its output."""
        done = subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=60, check=check)
        return done.stdout

    def xdotool(self, *args: str) -> str:
        return self.run("xdotool", *args)

    def icon(self) -> str | None:
        """The tray icon's X window (the app's small window that trayer embedded), once it exists."""
        # Every window: a search by name does not reach the icon once trayer has reparented it.
        for window in self.run("xdotool", "search", "--name", "", check=False).split():
            if self.run("xdotool", "getwindowname", window, check=False).strip() != "memvault":
                continue
            size = re.search(r"Geometry: (\d+)x(\d+)", self.xdotool("getwindowgeometry", window))
            if size and 8 <= int(size.group(1)) <= 48 and 8 <= int(size.group(2)) <= 48:
                return window
        return None

    def colours(self, window: str) -> tuple[int, int]:
        red, orange = self.run(sys.executable, "-c", COUNT_COLOURS, window).split()
        return int(red), int(orange)

    def menu(self, window: str, *keys: str) -> None:
        """Right-click the icon, then walk its menu with the keyboard."""
        self.xdotool("mousemove", "--window", window, "10", "10", "click", "3")
        time.sleep(1.0)  # the menu maps and grabs the keyboard
        for key in keys:
            self.xdotool("key", key)
            time.sleep(0.3)


def test_the_tray_icon_and_its_menu_in_a_real_x_session(
    display: dict[str, str], home: Path, vault: Vault, seeded: Seeded, tmp_path: Path
) -> None:
    vault.close()  # the app opens the store itself
    app = RunningApp(home, display, tmp_path / "app-stderr.txt")
    try:
        wait_for("the window's first rows", lambda: app.said("gui: first rows shown"))
        wait_for("the tray icon", lambda: app.icon() is not None, seconds=30)
        icon = app.icon()
        assert icon is not None
        wait_for("the pending badge", lambda: app.colours(icon)[1] > 0)
        assert app.colours(icon)[0] == 0  # no kill-switch stroke yet
        # Open memvault, Kill switch > (Off, Stop remote calls, Stop everything)
        app.menu(icon, "Down", "Down", "Right", "Down", "Down", "Return")
        with Vault.open(home) as reader:
            wait_for("the kill switch in the store", lambda: reader.get_setting("kill_switch") == "all", seconds=30)
        wait_for("the kill-switch stroke", lambda: app.colours(icon)[0] > 0, seconds=30)
        app.menu(icon, "Up", "Return")  # the last item: Quit memvault
        assert app.process.wait(timeout=60) == 0
    finally:
        if app.process.poll() is None:
            app.process.kill()
            app.process.wait()
    unexpected = [line for line in app.log.read_text().splitlines() if line and " INFO " not in line]
    assert unexpected == []  # nothing from Qt at exit ("QObject: shared QObject was deleted directly", a crash)
