"""memvault's own documented formats for any other history (docs/import.md).

JSONL: one object a line, `{"conversation": ID, "role": "user"|"assistant", "text": ...,
"time": ISO 8601 (optional), "title": (optional)}`; lines of one conversation need not be
adjacent and keep their order.

Markdown: each conversation opens with `# Title`, may give `Date: 2026-03-01` (or a time) on
the next line, then turns under `## user` (also `## me`, `## human`) or `## assistant`.
"""

from __future__ import annotations

import re

from memvault.core.importers.conversation import Conversation, ImportFormatError, Turn, iso_time
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


def parse_jsonl(text: str, file: str) -> list[Conversation]:
    grouped: dict[str, list[Turn]] = {}
    titles: dict[str, str] = {}
    for number, item in json_lines(text, file):
        if not isinstance(item.get("text"), str) or "conversation" not in item:
            raise ImportFormatError(file, f"line {number}", 'expected {"conversation", "role", "text"}')
        role = _role(item.get("role"))
        if role is None:
            raise ImportFormatError(file, f"line {number}", "role: expected user or assistant")
        key = str(item["conversation"])
        if item.get("time") is not None and iso_time(item.get("time")) is None:
            raise ImportFormatError(file, f"line {number}", "time: expected an ISO 8601 time")
        grouped.setdefault(key, []).append(
            Turn(role, item["text"].strip(), iso_time(item.get("time")), f"line {number}")
        )
        if isinstance(item.get("title"), str):
            titles.setdefault(key, item["title"])
    if not grouped:
        raise ImportFormatError(file, "line 1", "no conversation lines")
    return [
        Conversation(key, titles.get(key, key), turns[0].time, tuple(t for t in turns if t.text), f"conversation {key}")
        for key, turns in grouped.items()
    ]


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


def parse_markdown(text: str, file: str) -> list[Conversation]:
    reader = _MarkdownReader(file)
    for number, line in enumerate(text.splitlines(), start=1):
        reader.line(number, line)
    reader.close_conversation()
    if not reader.conversations:
        raise ImportFormatError(file, "line 1", "no '# Title' conversation found")
    return reader.conversations
