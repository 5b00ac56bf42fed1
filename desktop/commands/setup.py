"""`memvault init` and `memvault status`: make the store, and say how it is."""

from __future__ import annotations

import argparse
from typing import Any

from memvault.core import keys
from memvault.core.model import OWNER
from memvault.desktop.commands.common import add_command, emit, open_vault


def _init(args: argparse.Namespace) -> int:
    with open_vault(args, create=True) as vault:
        info = keys.describe(vault.paths.key_file)
        data = {
            "home": str(vault.paths.home),
            "store": str(vault.paths.store),
            "key_backend": info.backend,
            "key_detail": info.detail,
            "schema_version": vault.status(OWNER)["store"]["schema_version"],
        }
    emit(args, data, lambda d: f"memvault store ready in {d['home']} (key: {d['key_backend']}, {d['key_detail']})")
    return 0


def _status_text(data: dict[str, Any]) -> str:
    counts = data["counts"]
    lines = [
        f"memvault {data['version']} — schema {data['store']['schema_version']}, encrypted",
        f"records: {counts['current']} current, {counts['superseded']} superseded, {counts['archived']} archived",
        f"write mode: {data['write_mode']}   kill switch: {data['kill_switch']}   "
        f"embeddings: {data['embeddings']}   pending proposals: {data['pending_proposals']}",
    ]
    if counts["by_domain"]:
        lines.append("domains: " + ", ".join(f"{k} ({v})" for k, v in counts["by_domain"].items()))
    return "\n".join(lines)


def _status(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        emit(args, vault.status(OWNER), _status_text)
    return 0


def register(subparsers: Any) -> None:
    add_command(subparsers, "init", _init, "create the encrypted store (key in the OS keyring or a passphrase)")
    add_command(subparsers, "status", _status, "what the store holds and how memvault is set")
