"""An import request, validated once (from the CLI, the MCP tool or the watched folder)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from memvault.core.importers.conversation import FORMATS
from memvault.core.importers.readers import DEFAULT_MAX_BYTES
from memvault.core.vocabulary.drafts import int_in, optional_time, required_text
from memvault.core.vocabulary.errors import InvalidArgument

MAX_CHUNK = 1000


@dataclass(frozen=True)
class ImportRequest:
    path: str
    format: str = "auto"
    commit: bool = False  # the dry run is the default
    since: str | None = None  # conversations started at or after
    until: str | None = None  # ...and before
    max_conversations: int | None = None  # the most recent N
    max_bytes: int = DEFAULT_MAX_BYTES
    include_weak: bool = False
    chunk_size: int = 50  # conversations per committed transaction

    @classmethod
    def parse(cls, args: Mapping[str, Any]) -> ImportRequest:
        unknown = set(args) - {f.name for f in fields(cls)}
        if unknown:
            raise InvalidArgument(f"unknown argument(s): {', '.join(sorted(unknown))}")
        fmt = args.get("format") or "auto"
        if fmt not in ("auto", *FORMATS):
            raise InvalidArgument(f"format: expected one of auto, {', '.join(FORMATS)}")
        since, until = optional_time(args.get("since"), "since"), optional_time(args.get("until"), "until")
        if since and until and until <= since:
            raise InvalidArgument("until must be later than since")
        limit = args.get("max_conversations")
        return cls(
            path=required_text(args.get("path"), "path", max_chars=4096),
            format=str(fmt),
            commit=bool(args.get("commit", False)),
            since=since,
            until=until,
            max_conversations=None if limit is None else int_in(limit, "max_conversations", 0, 1, 10_000_000),
            max_bytes=int_in(args.get("max_bytes"), "max_bytes", DEFAULT_MAX_BYTES, 1, 2**40),
            include_weak=bool(args.get("include_weak", False)),
            chunk_size=int_in(args.get("chunk_size"), "chunk_size", 50, 1, MAX_CHUNK),
        )

    def options(self) -> dict[str, Any]:
        """What decides which conversations and candidates an import takes (kept in its manifest)."""
        return {
            "since": self.since,
            "until": self.until,
            "max_conversations": self.max_conversations,
            "include_weak": self.include_weak,
            "chunk_size": self.chunk_size,
        }
