"""`memvault proposals ...` (the approval inbox) and `memvault config ...` (the declared settings)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from memvault.core.runtime.settings import SETTINGS, setting
from memvault.core.vocabulary.model import OWNER
from memvault.desktop.commands.common import emit, open_vault
from memvault.desktop.commands.memory import command, short, table
from memvault.desktop.gui.models.write_reasons import SENSITIVE, is_sensitive, proposed_draft, why_waits


# -- proposals -------------------------------------------------------------------------------
def _what(proposal: dict[str, Any]) -> str:
    """What a proposal would do, in a few words (the person's own inbox, on their own terminal)."""
    payload = proposal["payload"]
    if proposal["kind"] == "add":
        draft = proposed_draft(proposal)
        badge = f"[{SENSITIVE}] " if is_sensitive(draft) else ""
        return f"{badge}{draft.get('type', '')} in {draft.get('domain', '?')}: {draft.get('statement', '')}"
    if proposal["kind"] == "correct":
        return f"{payload.get('id')} → {payload.get('statement', '')}"
    return f"{payload.get('id', proposal.get('target_id') or '')}" + (
        f" ({proposal['reason']})" if proposal.get("reason") else ""
    )


def _proposals_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "no proposals"
    rows = [
        [
            p["id"],
            p["kind"],
            p["status"],
            p["principal"],
            (p["created_at"] or "")[:16],
            why_waits(p),
            short(_what(p), 70),
        ]
        for p in items
    ]
    return table(["id", "kind", "status", "by", "created", "why", "what"], rows)


def _proposals_list(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        items = vault.proposals(OWNER, status=args.status)
    emit(args, items, _proposals_text)
    return 0


def _approve(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        result = vault.approve(OWNER, args.id)
    outcome = result.get("outcome")
    emit(args, result, lambda r: f"approved {r['proposal_id']}: {outcome} {r.get('id') or ''}".rstrip())
    return 0


def _reject(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        result = vault.reject(OWNER, args.id, args.reason)
    emit(args, result, lambda r: f"rejected {r['proposal_id']}")
    return 0


# -- config ----------------------------------------------------------------------------------
def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(value) or "(none)"
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _config_entry(name: str, value: Any) -> dict[str, Any]:
    declared = SETTINGS[name]
    return {
        "name": name,
        "value": value,
        "default": declared.default,
        "description": declared.description,
        "choices": list(declared.choices or declared.item_choices),
        "env": declared.env,
        "from_env": declared.from_env() is not None,
    }


def _config_text(entries: list[dict[str, Any]]) -> str:
    blocks = []
    for e in entries:
        head = f"{e['name']} = {_shown(e['value'])}"
        if e["value"] != e["default"]:
            head += f"   (default {_shown(e['default'])})"
        if e["from_env"]:
            head += f"   [set by ${e['env']}]"
        lines = [head, f"    {e['description']}"]
        if e["choices"]:
            lines.append(f"    one of: {', '.join(e['choices'])}")
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def _config_get(args: argparse.Namespace) -> int:
    names = [setting(args.name).name] if args.name else list(SETTINGS)
    with open_vault(args) as vault:
        entries = [_config_entry(name, vault.get_setting(name)) for name in names]
    if args.name and args.json:
        emit(args, entries[0])
    elif args.json:
        emit(args, {e["name"]: e for e in entries})
    else:
        emit(args, entries, _config_text)
    return 0


def _config_set(args: argparse.Namespace) -> int:
    declared = setting(args.name)
    with open_vault(args) as vault:
        value = vault.set_setting(OWNER, declared.name, args.value)
        effective = vault.get_setting(declared.name)
    if effective != value:
        print(
            f"memvault: note: ${declared.env} overrides {declared.name} in this environment "
            f"(effective: {_shown(effective)})",
            file=sys.stderr,
        )
    emit(args, {"name": declared.name, "value": value}, lambda d: f"{d['name']} = {_shown(d['value'])}")
    return 0


# -- wiring ----------------------------------------------------------------------------------
def register(subparsers: Any) -> None:
    group = subparsers.add_parser("proposals", help="the approval inbox: what assistants proposed to write")
    actions = group.add_subparsers(dest="proposals_command", metavar="ACTION", required=True)
    p = command(actions, "list", _proposals_list, "list proposals (pending by default)")
    p.add_argument("--status", default="pending", help="pending (default), approved or rejected")
    p = command(actions, "approve", _approve, "carry out a proposal")
    p.add_argument("id")
    p = command(actions, "reject", _reject, "turn a proposal down (nothing is written)")
    p.add_argument("id")
    p.add_argument("--reason")

    group = subparsers.add_parser("config", help="read and change settings")
    actions = group.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    p = command(actions, "get", _config_get, "show settings with their descriptions (or one)")
    p.add_argument("name", nargs="?")
    p = command(actions, "set", _config_set, "change a setting")
    p.add_argument("name")
    p.add_argument("value", help="lists are comma-separated; booleans true/false")
