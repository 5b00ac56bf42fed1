"""`memvault reindex`: embed every record still without a vector (e.g. written while embeddings were off),
and merge the word index's segments (the daemon's upkeep does that hourly)."""

from __future__ import annotations

import argparse
from typing import Any

from memvault.core.vocabulary.model import OWNER
from memvault.desktop.commands.common import add_command, emit, open_vault


def _reindex_text(data: dict[str, Any]) -> str:
    if data["embeddings"] == "off":
        return (
            f"embeddings are off: nothing embedded ({data['missing']} record(s) without a vector); "
            "turn them on with `memvault config set embeddings local`"
        )
    return f"embedded {data['embedded']} record(s); {data['missing']} without a vector"


def _words_text(tidy: dict[str, Any]) -> str:
    if not tidy["steps"]:
        return f"word index: {tidy['segments']} segment(s), nothing to merge"
    return f"word index: {tidy['segments_before']} segments merged into {tidy['segments']}"


def _reindex(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        data = {**vault.reindex(OWNER), "word_index": vault.tidy_word_index(OWNER)}
    emit(args, data, lambda d: f"{_reindex_text(d)}\n{_words_text(d['word_index'])}")
    return 0


def register(subparsers: Any) -> None:
    add_command(
        subparsers, "reindex", _reindex, "embed records that have no vector yet, merge the word index's segments"
    )
