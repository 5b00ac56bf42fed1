"""`memvault mcp` (what MCP clients spawn) and `memvault daemon` (the long-lived server behind it).

Every assistant start pays for `memvault mcp`, so `fast_args` recognises that command line
before the CLI loads its other command groups (which import the store, retrieval and more);
this module's top imports only the standard library for the same reason.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

_GLOBAL_FLAGS = {"-v": "verbose", "--verbose": "verbose", "--json": "json"}


def fast_args(argv: Sequence[str] | None) -> argparse.Namespace | None:
    """`[--home DIR] [-v] mcp [--embedded]` parsed without building the whole CLI; None for anything else."""
    words = list(sys.argv[1:] if argv is None else argv)
    args = argparse.Namespace(home=None, verbose=False, json=False, embedded=False, handler=_mcp, command="mcp")
    while words and words[0] != "mcp":
        word = words.pop(0)
        if word in _GLOBAL_FLAGS:
            setattr(args, _GLOBAL_FLAGS[word], True)
        elif word == "--home" and words:
            args.home = words.pop(0)
        elif word.startswith("--home="):
            args.home = word.removeprefix("--home=")
        else:
            return None
    if words[:1] != ["mcp"] or words[1:] not in ([], ["--embedded"]):
        return None
    args.embedded = words[1:] == ["--embedded"]
    return args


def _mcp(args: argparse.Namespace) -> int:
    from memvault.mcp_bridge import stdio  # noqa: PLC0415

    return stdio.run(args.home, verbose=args.verbose, embedded_only=args.embedded)


def _daemon(args: argparse.Namespace) -> int:
    from memvault.desktop import daemon  # noqa: PLC0415
    from memvault.desktop.commands.common import emit  # noqa: PLC0415

    if args.upkeep:  # the daemon's own upkeep process, reading the key from the daemon on stdin
        from memvault.desktop import upkeep_process  # noqa: PLC0415

        return upkeep_process.child(args.home)
    if args.stop:
        pid = daemon.stop(args.home)
        print(f"stopping the daemon (pid {pid})" if pid else "no daemon runs for this store", file=sys.stderr)
        return 0
    if args.status:
        emit(args, daemon.status(args.home), _status_text)
        return 0
    if not args.headless:
        from memvault.desktop.commands.app import run_app  # noqa: PLC0415 - the tray is the app

        return run_app(args)
    return daemon.run(args.home, headless=True, verbose=args.verbose)


def _status_text(data: dict[str, Any]) -> str:
    if data["running"] and not data["listening"]:
        return f"daemon starting (pid {data['pid']}): not listening yet on {data['socket']}"
    if data["running"]:
        return f"daemon running (pid {data['pid']}), listening on {data['socket']}"
    return "no daemon runs for this store"


def register(subparsers: Any) -> None:
    from memvault.desktop.commands.common import add_command  # noqa: PLC0415

    mcp = add_command(
        subparsers,
        "mcp",
        _mcp,
        "serve MCP on stdin/stdout (what assistants spawn): relays to the daemon when it runs, "
        "else serves from the store itself",
    )
    mcp.add_argument("--embedded", action="store_true", help="serve from the store even when the daemon runs")
    daemon = add_command(
        subparsers,
        "daemon",
        _daemon,
        "run the memvault daemon: unlock the store once and serve every `memvault mcp` bridge",
    )
    daemon.add_argument("--headless", action="store_true", help="no tray icon or windows (servers, CI)")
    control = daemon.add_mutually_exclusive_group()
    control.add_argument("--status", action="store_true", help="say whether a daemon serves this store")
    control.add_argument("--stop", action="store_true", help="ask the running daemon to stop")
    control.add_argument("--upkeep", action="store_true", help=argparse.SUPPRESS)
