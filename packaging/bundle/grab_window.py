"""Capture another process's window on this X display once it has settled, as a PNG (Qt's own screen grab).

    python packaging/bundle/grab_window.py --title "memvault — " --out shot.png [--pid PID] [--timeout 90]

The window is found by the start of its title with `xdotool` (the whole screen is taken where it is
missing). Settled: two grabs half a second apart are the same picture, not before `--settle` seconds
after the window showed (the first rows, the icons and the counts have arrived by then). Exit 0 with
the PNG written, 1 when no window showed in time (or the process `--pid` ended first).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time

from PySide6.QtGui import QGuiApplication, QImage


def alive(pid: int | None) -> bool:
    if pid is None:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def window_id(title: str, deadline: float, pid: int | None) -> int | None:
    """The first visible window whose title starts with `title` (0: the whole screen, without xdotool)."""
    xdotool = shutil.which("xdotool")
    if xdotool is None:
        return 0
    while time.monotonic() < deadline and alive(pid):
        found = subprocess.run(
            [xdotool, "search", "--onlyvisible", "--name", f"^{title}"], capture_output=True, text=True, check=False
        )
        ids = found.stdout.split()
        if ids:
            return int(ids[0])
        time.sleep(0.3)
    return None


def settled(wid: int, settle: float, deadline: float) -> QImage:
    """The window's picture once it stops changing (or as it is at the deadline)."""
    screen = QGuiApplication.primaryScreen()
    time.sleep(settle)
    before = screen.grabWindow(wid).toImage()
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = screen.grabWindow(wid).toImage()
        if now == before and not now.isNull():
            return now
        before = now
    return before


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", required=True, help="the start of the window's title")
    parser.add_argument("--out", required=True)
    parser.add_argument("--pid", type=int, help="the window's process: stop waiting when it ends")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds to wait for the window")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds to let it draw before comparing")
    args = parser.parse_args()
    QGuiApplication(sys.argv[:1])
    deadline = time.monotonic() + args.timeout
    wid = window_id(args.title, deadline, args.pid)
    if wid is None:
        print(f"grab: no window titled {args.title!r}… within {args.timeout:.0f} s", file=sys.stderr)
        return 1
    image = settled(wid, args.settle, deadline + 30)
    if image.isNull() or not image.save(args.out):
        print(f"grab: the window could not be captured into {args.out}", file=sys.stderr)
        return 1
    print(f"grab: {args.out} ({image.width()}x{image.height()}, window {wid:#x})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
