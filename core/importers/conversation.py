"""What every reader produces: conversations of turns, read from a file that stays untouched."""

from __future__ import annotations

import sys
from dataclasses import dataclass
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
class Outline:
    """What the first reading keeps of a conversation, to choose and order them: no text."""

    position: int  # its place among the export's conversations (in file order)
    key: str
    started_at: str | None
    text_bytes: int  # the memory its text takes (conversations read together are bounded by it)

    @classmethod
    def of(cls, position: int, conversation: Conversation) -> Outline:
        held = text_bytes(conversation.title) + sum(text_bytes(turn.text) for turn in conversation.turns)
        return cls(position, conversation.key, conversation.started_at, held)


def text_bytes(text: str) -> int:
    """What a text takes in memory (1, 2 or 4 bytes a character, by its widest character)."""
    return sys.getsizeof(text)


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
