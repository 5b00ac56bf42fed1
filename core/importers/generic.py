"""memvault's own documented formats for any other history (docs/import.md).

JSONL: one object a line, `{"conversation": ID, "role": "user"|"assistant", "text": ...,
"time": ISO 8601 (optional), "title": (optional)}`; lines of one conversation need not be
adjacent and keep their order.

Markdown: each conversation opens with `# Title`, may give `Date: 2026-03-01` (or a time) on
the next line, then turns under `## user` (also `## me`, `## human`) or `## assistant`.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Iterator
from typing import Any

from memvault.core.importers.conversation import Conversation, ImportFormatError, Outline, Turn, iso_time, text_bytes
from memvault.core.importers.jsontext import json_lines

USER_NAMES = {"user", "me", "human", "you"}
ASSISTANT_NAMES = {"assistant", "ai", "chatgpt", "claude", "codex"}
_DATE = re.compile(r"^(?:date|time):\s*(\S+)\s*$", re.IGNORECASE)


def _role(value: object) -> str | None:
    name = str(value).strip().casefold()
    if name in USER_NAMES:
        return "user"
    if name in ASSISTANT_NAMES:
        return "assistant"
    return None


def _jsonl_turn(number: int, item: dict[str, Any], file: str) -> tuple[str, Turn, str | None]:
    """One line's conversation key, turn and title (None when the line gives none)."""
    if not isinstance(item.get("text"), str) or "conversation" not in item:
        raise ImportFormatError(file, f"line {number}", 'expected {"conversation", "role", "text"}')
    role = _role(item.get("role"))
    if role is None:
        raise ImportFormatError(file, f"line {number}", "role: expected user or assistant")
    if item.get("time") is not None and iso_time(item.get("time")) is None:
        raise ImportFormatError(file, f"line {number}", "time: expected an ISO 8601 time")
    title = item.get("title")
    turn = Turn(role, item["text"].strip(), iso_time(item.get("time")), f"line {number}")
    return str(item["conversation"]), turn, title if isinstance(title, str) else None


def jsonl_outlines(numbered: Iterable[tuple[int, str]], file: str) -> list[Outline]:
    """Every conversation of a JSONL file without its text (lines of one need not be adjacent)."""
    rows: dict[str, tuple[str | None, str | None, int]] = {}  # key: (started, title, text bytes)
    for number, item in json_lines(numbered, file):
        key, turn, title = _jsonl_turn(number, item, file)
        started, known, held = rows.get(key, (turn.time, None, 0))
        rows[key] = (started, known if known is not None else title, held + text_bytes(turn.text))
    if not rows:
        raise ImportFormatError(file, "line 1", "no conversation lines")
    return [
        Outline(position, key, started, text_bytes(title if title is not None else key) + held)
        for position, (key, (started, title, held)) in enumerate(rows.items())
    ]


def jsonl_conversations(
    numbered: Iterable[tuple[int, str]], file: str, wanted: Container[int]
) -> Iterator[tuple[int, Conversation]]:
    """The conversations at the `wanted` positions (in order of first appearance), at the file's end."""
    positions: dict[str, int] = {}
    grouped: dict[str, list[Turn]] = {}
    titles: dict[str, str] = {}
    for number, item in json_lines(numbered, file):
        key, turn, title = _jsonl_turn(number, item, file)
        if positions.setdefault(key, len(positions)) not in wanted:
            continue
        grouped.setdefault(key, []).append(turn)
        if title is not None:
            titles.setdefault(key, title)
    for key, turns in grouped.items():
        texts = tuple(t for t in turns if t.text)
        yield positions[key], Conversation(key, titles.get(key, key), turns[0].time, texts, f"conversation {key}")


class _MarkdownReader:
    """Reads line by line: a '# ' title opens a conversation, '## role' a turn, a Date line a time."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.conversations: list[Conversation] = []
        self.title: str | None = None
        self.opened, self.turn_line = 0, 0
        self.started: str | None = None
        self.turns: list[Turn] = []
        self.role: str | None = None
        self.body: list[str] = []

    def close_turn(self) -> None:
        said = "\n".join(self.body).strip()
        if self.role is not None and said:
            self.turns.append(Turn(self.role, said, self.started, f"line {self.turn_line}"))
        self.role, self.body = None, []

    def close_conversation(self) -> None:
        self.close_turn()
        if self.title is not None:
            key = f"{self.file}:{self.opened}"
            self.conversations.append(
                Conversation(key, self.title, self.started, tuple(self.turns), f"line {self.opened}")
            )
        self.turns, self.started = [], None

    def line(self, number: int, line: str) -> None:
        if line.startswith("# "):
            self.close_conversation()
            self.title, self.opened = line[2:].strip(), number
        elif self.title is None:
            if line.strip():
                raise ImportFormatError(self.file, f"line {number}", "expected a '# Title' line first")
        elif line.startswith("## "):
            self.close_turn()
            self.role, self.turn_line = _role(line[3:]), number
            if self.role is None:
                raise ImportFormatError(self.file, f"line {number}", "a turn heading is '## user' or '## assistant'")
        elif self.role is None:
            self.preamble(number, line)
        else:
            self.body.append(line)

    def preamble(self, number: int, line: str) -> None:
        date = _DATE.match(line.strip())
        if date:
            self.started = iso_time(date.group(1))
            if self.started is None:
                raise ImportFormatError(self.file, f"line {number}", "Date: expected an ISO 8601 date or time")
        elif line.strip():
            raise ImportFormatError(self.file, f"line {number}", "text before the first '## user' or '## assistant'")


def markdown_conversations(numbered: Iterable[tuple[int, str]], file: str) -> Iterator[Conversation]:
    """Each conversation of a Markdown history as soon as the next one opens (or the file ends)."""
    reader = _MarkdownReader(file)
    found = 0
    for number, line in numbered:
        reader.line(number, line)
        found += len(reader.conversations)
        yield from reader.conversations
        reader.conversations.clear()
    reader.close_conversation()
    found += len(reader.conversations)
    yield from reader.conversations
    if not found:
        raise ImportFormatError(file, "line 1", "no '# Title' conversation found")
