"""`memvault install codex|claude [--dry-run]`: register memvault's MCP server with a client.

`memvault uninstall` (the maintenance commands) removes it again through
`memvault.desktop.clients.remove_registration`.
"""

from __future__ import annotations

import argparse
from typing import Any

from memvault.desktop.commands.common import add_command, emit


def _install(args: argparse.Namespace) -> int:
    from memvault.desktop import clients  # noqa: PLC0415

    result = clients.install(args.client, dry_run=args.dry_run, force=args.force, home=args.home)
    data = {
        "client": result.client,
        "dry_run": args.dry_run,
        "command": result.server.command,
        "args": list(result.server.args),
        "changes": [{"path": str(c.path), "what": c.what, "diff": c.diff()} for c in result.changes],
        "notes": result.notes,
    }
    emit(args, data, _human)
    return 0


def _human(data: dict[str, Any]) -> str:
    lines: list[str] = []
    for change in data["changes"]:
        if data["dry_run"]:
            lines.append(change["diff"].rstrip("\n"))
        else:
            lines.append(f"added {change['what']}")
    if data["dry_run"]:
        lines.append("dry run: nothing was written")
    elif data["changes"]:
        started = " ".join([data["command"], *data["args"]])
        lines.append(f"{data['client']} will start `{started}`; no passphrase or key is stored there")
    lines += data["notes"]
    return "\n".join(lines)


def register(subparsers: Any) -> None:
    parser = add_command(
        subparsers,
        "install",
        _install,
        "register memvault's MCP server with Codex (config.toml + skill) or Claude Code (~/.claude.json)",
    )
    parser.add_argument("client", choices=("codex", "claude"))
    parser.add_argument("--dry-run", action="store_true", help="show the change without writing anything")
    parser.add_argument("--force", action="store_true", help="replace a `memvault` entry that runs something else")
