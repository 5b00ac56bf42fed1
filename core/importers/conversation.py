"""What every reader produces: conversations of turns, read from a file that stays untouched."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from memvault.core.vocabulary.clock import format_time
from memvault.core.vocabulary.errors import InvalidArgument

FORMATS = ("chatgpt", "claude", "codex", "jsonl", "markdown")


class ImportFormatError(InvalidArgument):
    """The file is not what it claims, truncated or malformed: names the file and the place."""

    def __init__(self, file: str, place: str, what: str) -> None:
        super().__init__(f"{file}: {place}: {what}; nothing was imported")
        self.file = file
        self.place = place


@dataclass(frozen=True)
class Turn:
    role: str  # "user" (the person) or "assistant"
    text: str
    time: str | None
    ref: str  # the message's id or place in the file (a pointer, never a copy)


@dataclass(frozen=True)
class Conversation:
    key: str  # the export's own id of the conversation
    title: str
    started_at: str | None
    turns: tuple[Turn, ...]
    place: str  # where in the file it was read

    @property
    def user_turns(self) -> list[Turn]:
        return [turn for turn in self.turns if turn.role == "user"]


@dataclass(frozen=True)
class Export:
    path: str
    format: str
    source_hash: str  # sha256 of the original bytes (all files of a folder, in name order)
    size_bytes: int
    conversations: list[Conversation] = field(default_factory=list)


def epoch_time(value: object) -> str | None:
    """A Unix time (seconds, as ChatGPT writes it) as the contract's time text."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return format_time(datetime.fromtimestamp(float(value), UTC))
    except (OverflowError, OSError, ValueError):
        return None


def iso_time(value: object) -> str | None:
    """An ISO 8601 time as written by Claude and Codex (Z or an offset), normalised; None when absent."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip().replace("Z", "+00:00")
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return format_time(moment)
