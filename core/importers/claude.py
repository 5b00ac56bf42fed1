"""Claude's data export: `conversations.json`, a list of conversations with `uuid`, `name`,
`created_at` and `chat_messages` (`sender` human or assistant; text in `text` or in `content` blocks)."""

from __future__ import annotations

from typing import Any

from memvault.core.importers.conversation import Conversation, ImportFormatError, Turn, iso_time
from memvault.core.importers.jsontext import expect_object

SENDERS = {"human": "user", "assistant": "assistant"}


def conversation(item: Any, file: str, place: str) -> Conversation:
    """One item of the export's top-level list (`place`: where it is, for errors)."""
    item = expect_object(item, file, place)
    messages = item.get("chat_messages")
    if not isinstance(messages, list):
        raise ImportFormatError(file, place, "no 'chat_messages' list (not a Claude conversation)")
    turns = [t for i, m in enumerate(messages) if (t := _turn(m, file, f"{place}.chat_messages[{i}]")) is not None]
    return Conversation(
        key=str(item.get("uuid") or place),
        title=str(item.get("name") or "untitled"),
        started_at=iso_time(item.get("created_at")) or (turns[0].time if turns else None),
        turns=tuple(turns),
        place=place,
    )


def _turn(message: Any, file: str, place: str) -> Turn | None:
    message = expect_object(message, file, place)
    sender = message.get("sender")
    if sender not in SENDERS:
        raise ImportFormatError(file, f"{place}.sender", "expected 'human' or 'assistant'")
    text = message.get("text")
    if not isinstance(text, str) or not text.strip():
        blocks = message.get("content")
        text = "\n".join(
            b["text"]
            for b in (blocks if isinstance(blocks, list) else [])
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        )
    text = text.strip()
    if not text:
        return None
    return Turn(SENDERS[sender], text, iso_time(message.get("created_at")), str(message.get("uuid") or place))
