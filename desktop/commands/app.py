"""`memvault app`: the desktop app (tray, window) that is also the daemon; Qt is imported only here."""

from __future__ import annotations

import argparse
from typing import Any

from memvault.desktop.commands.common import add_command


def run_app(args: argparse.Namespace) -> int:
    from memvault.desktop.gui import app  # noqa: PLC0415 - Qt loads only for this command

    return app.run(args.home, minimized=getattr(args, "minimized", False), verbose=getattr(args, "verbose", False))


def register(subparsers: Any) -> None:
    parser = add_command(
        subparsers,
        "app",
        run_app,
        "open the memvault app: the tray icon and the window (memories, timeline, graph, inbox, settings); "
        "it also serves assistants, like `memvault daemon`",
    )
    parser.add_argument("--minimized", action="store_true", help="start in the tray without opening the window")
