"""OAuth connections: `memvault connections pending|approve ID|deny ID|list|revoke ID`.

The person answers here (or in the app) what an authorization page asks: the page itself can
approve nothing. See docs/oauth.md.
"""

from __future__ import annotations

import argparse
from typing import Any

from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.oauth import ALL_SCOPES
from memvault.desktop.commands.common import add_command, emit, open_vault


def _pending(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        rows = vault.oauth.pending(OWNER)
    emit(args, rows, _pending_text)
    return 0


def _pending_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no connection requests waiting"
    return "\n".join(
        f"{row['id']}  {row['client_name'] or '(unnamed client)'}  returns to {row['redirect_host']}"
        f"  asks {' '.join(row['scopes'])}  until {row['expires_at']}"
        for row in rows
    )


def _approve(args: argparse.Namespace) -> int:
    scopes = [scope for given in args.scope or [] for scope in given.replace(",", " ").split()] or None
    with open_vault(args) as vault:
        done = vault.oauth.approve(OWNER, args.id, scopes)
    emit(args, done, lambda d: f"approved {d['id']} ({d['client_name'] or 'unnamed client'}): {' '.join(d['scopes'])}")
    return 0


def _deny(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        done = vault.oauth.deny(OWNER, args.id)
    emit(args, done, lambda d: f"denied {d['id']} ({d['client_name'] or 'unnamed client'})")
    return 0


def _list(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        rows = vault.oauth.connections(OWNER)
    emit(args, rows, _connections_text)
    return 0


def _connections_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no connections"
    lines = []
    for row in rows:
        if row["revoked_at"]:
            state = f"revoked {row['revoked_at']} ({row['revoked_reason']})"
        elif row["refresh_until"]:
            state = f"live, last refreshed {row['refreshed_at'] or row['created_at']}"
        else:
            state = "expired"
        name = row["client_name"] or "(unnamed client)"
        lines.append(f"{row['id']}  {name}  {' '.join(row['scopes'])}  since {row['created_at']}  {state}")
    return "\n".join(lines)


def _revoke(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        done = vault.oauth.revoke(OWNER, args.id)
    emit(args, done, lambda d: f"revoked connection {d['id']} ({d['revoked_tokens']} token(s))")
    return 0


def register(subparsers: Any) -> None:
    group = add_command(
        subparsers,
        "connections",
        lambda a: a.connections_parser.print_help(),
        "OAuth connections (ChatGPT, Claude on the web ...): answer requests, list, revoke",
    )
    group.set_defaults(connections_parser=group)
    actions = group.add_subparsers(dest="connections_command", metavar="ACTION")
    add_command(actions, "pending", _pending, "connection requests waiting for your answer")
    approve = add_command(actions, "approve", _approve, "approve a waiting request (the code its page shows)")
    approve.add_argument("id", metavar="ID", help="the request's code, e.g. ABCD-EFGH")
    approve.add_argument(
        "--scope",
        action="append",
        metavar="SCOPE",
        help=f"grant only these of the scopes asked for (repeatable; {', '.join(ALL_SCOPES)})",
    )
    deny = add_command(actions, "deny", _deny, "deny a waiting request")
    deny.add_argument("id", metavar="ID")
    add_command(actions, "list", _list, "connections made, live or revoked (never their tokens)")
    revoke = add_command(actions, "revoke", _revoke, "revoke a connection and all its tokens at once")
    revoke.add_argument("id", metavar="ID")
