"""Codex CLI sessions: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, one JSON object a line.

The first line is the session's meta (`{"type": "session_meta", "payload": {"id", "timestamp"}}`,
or in older versions the bare `{"id", "timestamp"}`); response items follow
(`{"type": "response_item", "payload": {"type": "message", "role", "content": [{"text"}]}}`,
or the bare item). Only `user` and `assistant` messages are turns; the context Codex injects
into user messages (`<environment_context>`, `<user_instructions>`) is not the person's words.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memvault.core.importers.conversation import Conversation, ImportFormatError, Turn, iso_time
from memvault.core.importers.jsontext import json_lines

ROLES = ("user", "assistant")


def parse_session(numbered: Iterable[tuple[int, str]], file: str, place: str) -> Conversation:
    """One rollout file, from its (number, line) pairs."""
    meta: dict[str, Any] = {}
    turns: list[Turn] = []
    for number, item in json_lines(numbered, file):
        payload: dict[str, Any] = item["payload"] if isinstance(item.get("payload"), dict) else item
        if number == 1 or item.get("type") == "session_meta":
            meta = meta or _meta(item, payload, file, number)
            continue
        turn = _turn(payload, item.get("timestamp"), f"line {number}")
        if turn is not None:
            turns.append(turn)
    if not meta:
        raise ImportFormatError(file, "line 1", "no session meta (not a Codex rollout file)")
    first = next((t.text for t in turns if t.role == "user"), "")
    return Conversation(
        key=str(meta.get("id") or place),
        title=(first.splitlines()[0][:60] if first else "Codex session"),
        started_at=iso_time(meta.get("timestamp")) or (turns[0].time if turns else None),
        turns=tuple(turns),
        place=place,
    )


def _meta(item: dict[str, Any], payload: dict[str, Any], file: str, number: int) -> dict[str, Any]:
    if item.get("type") == "session_meta" or ("id" in payload and "timestamp" in payload):
        return payload
    raise ImportFormatError(file, f"line {number}", "expected the session meta first (not a Codex rollout file)")


def _turn(payload: dict[str, Any], timestamp: Any, ref: str) -> Turn | None:
    if payload.get("type", "message") != "message" or payload.get("role") not in ROLES:
        return None
    blocks = payload.get("content")
    if not isinstance(blocks, list):
        return None
    texts = [b["text"] for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str)]
    words = "\n".join(t for t in texts if not t.lstrip().startswith("<")).strip()
    if not words:
        return None
    return Turn(str(payload["role"]), words, iso_time(timestamp), ref)
