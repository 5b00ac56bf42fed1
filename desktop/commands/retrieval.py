"""`memvault reindex`: embed every record still without a vector (e.g. written while embeddings were off)."""

from __future__ import annotations

import argparse
from typing import Any

from memvault.core.model import OWNER
from memvault.desktop.commands.common import add_command, emit, open_vault


def _reindex_text(data: dict[str, Any]) -> str:
    if data["embeddings"] == "off":
        return (
            f"embeddings are off: nothing embedded ({data['missing']} record(s) without a vector); "
            "turn them on with `memvault config set embeddings local`"
        )
    return f"embedded {data['embedded']} record(s); {data['missing']} without a vector"


def _reindex(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        emit(args, vault.reindex(OWNER), _reindex_text)
    return 0


def register(subparsers: Any) -> None:
    add_command(subparsers, "reindex", _reindex, "embed records that have no vector yet (the local model)")
