"""`memvault install codex|claude [--dry-run] [--no-check]`: register memvault's MCP server with a client.

Before writing, the store must exist: on a terminal install offers to create it, elsewhere it
says how and exits 2 with nothing written. After writing, it starts the server exactly as the
client will (command, arguments and environment read back from the client's config file) and
asks it for `memory_status`: ready, or the one command that makes it ready (exit 2).

`memvault uninstall` (the maintenance commands) removes it again through
`memvault.desktop.clients.remove_registration`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from memvault.core.runtime.paths import VaultPaths
from memvault.core.vocabulary.errors import EnvironmentProblem
from memvault.desktop.commands.common import add_command, emit, no_answer
from memvault.desktop.commands.setup import create_store, recovery_key_lines
from memvault.mcp_bridge.readiness import memvault_command, store_exists

EXIT_NOT_READY = 2  # registered, but the client's first start would find the store not ready


def _install(args: argparse.Namespace) -> int:
    from memvault.desktop import clients, launch_check  # noqa: PLC0415

    created = None if args.dry_run else _ensure_store(args)
    result = clients.install(args.client, dry_run=args.dry_run, force=args.force, home=args.home)
    data: dict[str, Any] = {
        "client": result.client,
        "dry_run": args.dry_run,
        "store_created": created["home"] if created else None,
        "recovery_key": created["recovery_key"] if created else None,
        "command": result.server.command,
        "args": list(result.server.args),
        "changes": [{"path": str(c.path), "what": c.what, "diff": c.diff()} for c in result.changes],
        "notes": result.notes,
        "check": None,
    }
    launch = None if args.dry_run or args.no_check else launch_check.registered_launch(args.client)
    if launch is not None:
        data["check"] = launch_check.check(launch).as_dict()
    emit(args, data, _human)
    return EXIT_NOT_READY if data["check"] is not None and not data["check"]["ready"] else 0


def _ensure_store(args: argparse.Namespace) -> dict[str, Any] | None:
    """The new store (folder, recovery key) when install just created it; None when it existed.
    Refuses when it cannot ask."""
    if store_exists(args.home):
        return None
    init = memvault_command(VaultPaths.from_env(args.home), "init")
    if args.json or not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise EnvironmentProblem(f"no memvault store yet: run `{init}` first, then `memvault install {args.client}`")
    later = f"run `{init}` first, then `memvault install {args.client}`"
    try:
        answer = input(f"No memvault store yet. Create it now ({init})? [Y/n] ").strip().lower()
    except EOFError:
        raise no_answer(f"no store was made and nothing was registered: {later}") from None
    if answer not in ("", "y", "yes"):
        raise EnvironmentProblem(f"nothing was registered: {later}")
    return create_store(args.home)


def _human(data: dict[str, Any]) -> str:
    lines: list[str] = [f"created the memvault store in {data['store_created']}"] if data["store_created"] else []
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
    if data["check"] is not None:
        lines.append(_check_text(data["client"], data["check"]))
    return "\n".join(lines + recovery_key_lines(data["recovery_key"]))


def _check_text(client: str, check: dict[str, Any]) -> str:
    took = f"{check['seconds']:.1f} s"
    if check["ready"]:
        records = check["status"].get("counts", {}).get("current", 0)
        text = f"checked: started as {client} will, memory_status answered in {took} ({records} records)"
        return text + (f"\nwarning: {check['problem']}" if check["problem"] else "")
    fix = f"\nrun: {check['command']}" if check["command"] else ""
    return f"checked: started as {client} will, it is NOT ready ({took}): {check['problem']}{fix}"


def register(subparsers: Any) -> None:
    parser = add_command(
        subparsers,
        "install",
        _install,
        "register memvault's MCP server with Codex (config.toml + skill) or Claude Code (~/.claude.json), "
        "then start it as the client will and ask for memory_status",
    )
    parser.add_argument("client", choices=("codex", "claude"))
    parser.add_argument("--dry-run", action="store_true", help="show the change without writing anything")
    parser.add_argument("--force", action="store_true", help="replace a `memvault` entry that runs something else")
    parser.add_argument("--no-check", action="store_true", help="do not start the server after registering it")
