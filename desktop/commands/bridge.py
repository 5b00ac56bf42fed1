"""`memvault mcp` (what MCP clients spawn) and `memvault daemon` (the long-lived server behind it)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from memvault.desktop.commands.common import add_command, emit


def _mcp(args: argparse.Namespace) -> int:
    from memvault.mcp_bridge import stdio  # noqa: PLC0415

    return stdio.run(args.home, verbose=args.verbose, embedded_only=args.embedded)


def _daemon(args: argparse.Namespace) -> int:
    from memvault.desktop import daemon  # noqa: PLC0415

    if args.stop:
        pid = daemon.stop(args.home)
        print(f"stopping the daemon (pid {pid})" if pid else "no daemon runs for this store", file=sys.stderr)
        return 0
    if args.status:
        emit(args, daemon.status(args.home), _status_text)
        return 0
    return daemon.run(args.home, headless=args.headless, verbose=args.verbose)


def _status_text(data: dict[str, Any]) -> str:
    if data["running"]:
        return f"daemon running (pid {data['pid']}), socket {data['socket']}"
    return "no daemon runs for this store"


def register(subparsers: Any) -> None:
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
