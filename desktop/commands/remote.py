"""Remote access: `memvault serve --http`, `memvault token ...` and `memvault kill-switch ...`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from memvault.core.security.kill_switch import Positions
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import OWNER, KillSwitch
from memvault.desktop.commands.common import add_command, emit, open_vault

# What `kill-switch` prints for each position, and what the position in force means.
POSITION_WORDS = {KillSwitch.OFF: "off", KillSwitch.REMOTE: "on", KillSwitch.ALL: "all"}
IN_FORCE_WORDS = {
    KillSwitch.OFF: "assistants may call",
    KillSwitch.REMOTE: "remote and workspace calls are stopped",
    KillSwitch.ALL: "every assistant call is stopped",
}


def parse_listen(value: str) -> tuple[str, int]:
    """`127.0.0.1:8765` or `[::1]:8765`."""
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise InvalidArgument("--http: expected ADDRESS:PORT, e.g. 127.0.0.1:8765")
    return host.strip("[]"), int(port)


def _serve(args: argparse.Namespace) -> int:
    from memvault.mcp_bridge import http  # noqa: PLC0415 (the SDK loads only when serving)
    from memvault.mcp_bridge.stdio import setup_logging  # noqa: PLC0415

    host, port = parse_listen(args.http)
    if args.max_body < 1024 or args.calls_per_minute <= 0 or args.burst < 1:
        raise InvalidArgument("--max-body must be at least 1024, --calls-per-minute positive, --burst at least 1")
    sock = http.bind(host, port, args.allow_address)
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    with open_vault(args) as vault:
        setup_logging(vault.paths, "http.log", verbose=args.verbose)  # who called which tool: an audit trail
        print(f"memvault: serving MCP at http://{shown}:{bound_port}{http.MCP_PATH}", file=sys.stderr, flush=True)
        if args.public_url:
            print(
                f"memvault: OAuth issuer {args.public_url.rstrip('/')} (consent: memvault connections)", file=sys.stderr
            )
        http.serve_http(
            vault,
            sock,
            max_body=args.max_body,
            calls_per_minute=args.calls_per_minute,
            burst=args.burst,
            public_url=args.public_url,
            client_metadata_documents=args.client_metadata_documents,
        )
    return 0


def _token_create(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        made = vault.create_token(OWNER, args.principal, args.surface, args.workspace)
    # The token alone on stdout, once; everything else on stderr.
    print(made["token"], flush=True)
    where = f" (workspace {made['workspace_id']})" if made["workspace_id"] else ""
    print(
        f"memvault: token for {made['principal']}, surface {made['surface']}{where}; it is shown only now",
        file=sys.stderr,
    )
    return 0


def _token_revoke(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        done = vault.revoke_principal(OWNER, args.name)
    emit(args, done, lambda d: f"revoked {d['principal']} ({d['revoked_tokens']} token(s))")
    return 0


def _token_list(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        rows = vault.list_principals(OWNER)
    emit(args, rows, _principals_text)
    return 0


def _principals_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no principals"
    lines = []
    for row in rows:
        where = f" workspace={row['workspace_id']}" if row["workspace_id"] else ""
        state = f"revoked {row['revoked_at']}" if row["revoked_at"] else f"{row['live_tokens']} live token(s)"
        lines.append(f"{row['name']}  {row['surface']}{where}  {state}")
    return "\n".join(lines)


def _kill_switch(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        shared = vault.shares_store
        if args.position == "status":
            emit(args, _positions_data(vault.kill_switch(), shared), _positions_text)
            return 0
        positions = vault.set_kill_switch(OWNER, args.position, store_wide=args.store_wide)
    store_wide = args.store_wide and shared
    print(POSITION_WORDS[positions.in_force])
    if positions.in_force is not (positions.store if store_wide else positions.machine):
        other = "this machine's" if store_wide else "the store-wide"
        print(
            f"memvault: {other} position is {POSITION_WORDS[positions.in_force]} and stronger: it stays in force "
            "(`memvault kill-switch status` shows both)",
            file=sys.stderr,
        )
    return 0


def _positions_data(positions: Positions, shared: bool) -> dict[str, Any]:
    return {
        "in_force": positions.in_force.value,
        "held_by": positions.held_by,
        "machine": positions.machine.value,
        "machine_unreadable": positions.machine_unreadable,
        "store_wide": positions.store.value,
        "shared_store": shared,
    }


def _positions_text(data: dict[str, Any]) -> str:
    in_force = KillSwitch(data["in_force"])
    machine = POSITION_WORDS[KillSwitch(data["machine"])]
    if data["machine_unreadable"]:
        machine += " (its file cannot be read: counted as all; set a position to rewrite it)"
    store = POSITION_WORDS[KillSwitch(data["store_wide"])]
    if not data["shared_store"]:
        store += " (no other machine uses this store: the two positions are one)"
    held = "" if in_force is KillSwitch.OFF else f" ({data['held_by']})"
    return "\n".join(
        (
            POSITION_WORDS[in_force],  # the first line alone, as the contract says: off, on or all
            f"{IN_FORCE_WORDS[in_force]}{held}",
            f"this machine: {machine}",
            f"store-wide: {store}",
        )
    )


def register(subparsers: Any) -> None:
    serve = add_command(
        subparsers,
        "serve",
        _serve,
        "serve MCP over loopback HTTP (streamable HTTP at /mcp); every request needs a bearer token",
    )
    serve.add_argument("--http", required=True, metavar="ADDRESS:PORT", help="e.g. 127.0.0.1:8765 (port 0: any)")
    serve.add_argument(
        "--allow-address",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="allow this non-loopback address (repeatable); without it only loopback is accepted",
    )
    serve.add_argument("--max-body", type=int, default=1024 * 1024, help="largest request body in bytes")
    serve.add_argument("--calls-per-minute", type=float, default=120.0, help="tool calls a minute per principal")
    serve.add_argument("--burst", type=int, default=30, help="tool calls at once per principal")
    serve.add_argument(
        "--public-url",
        metavar="URL",
        help="the https address clients reach (a tunnel's): turns on OAuth 2.1, consent in memvault (docs/oauth.md)",
    )
    serve.add_argument(
        "--client-metadata-documents",
        action="store_true",
        help="with --public-url: fetch the metadata document of a client whose id is an https URL (network use)",
    )

    token = add_command(subparsers, "token", lambda a: a.token_parser.print_help(), "bearer tokens for remote access")
    token.set_defaults(token_parser=token)
    actions = token.add_subparsers(dest="token_command", metavar="ACTION")
    create = add_command(actions, "create", _token_create, "make a token (printed once, alone on stdout)")
    create.add_argument("--principal", required=True, help="a name for who will use it, e.g. chatgpt")
    create.add_argument("--surface", required=True, choices=("remote", "workspace"))
    create.add_argument("--workspace", help="the workspace id (workspace surface only)")
    revoke = add_command(actions, "revoke", _token_revoke, "revoke a principal and all its tokens")
    revoke.add_argument("name")
    add_command(actions, "list", _token_list, "principals and how many live tokens each has (never the tokens)")

    switch = add_command(
        subparsers,
        "kill-switch",
        _kill_switch,
        "stop remote access (on, or remote), all assistant access (all), or resume (off) on this machine; "
        "prints the position in force. status: this machine's, the store-wide one, and the one in force",
    )
    switch.add_argument("position", choices=("on", "remote", "off", "all", "status"))
    switch.add_argument(
        "--store-wide",
        action="store_true",
        help="set the store's position, which every machine using a shared store honours "
        "(on a store only this machine uses, the two positions are one)",
    )
