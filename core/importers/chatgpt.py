"""ChatGPT's data export: `conversations.json` (alone or inside the export's zip).

Each conversation holds a `mapping` of message nodes (`message.author.role`,
`message.content.parts`, `message.create_time`, `parent`); the conversation as the person
last saw it is the branch that ends at `current_node`, followed up to the root.
"""

from __future__ import annotations

from typing import Any

from memvault.core.importers.conversation import Conversation, ImportFormatError, Turn, epoch_time
from memvault.core.importers.jsontext import expect_object

ROLES = {"user": "user", "assistant": "assistant"}  # system and tool messages are not the person's words


def conversation(item: Any, file: str, place: str) -> Conversation:
    """One item of the export's top-level list (`place`: where it is, for errors)."""
    item = expect_object(item, file, place)
    mapping = item.get("mapping")
    if not isinstance(mapping, dict):
        raise ImportFormatError(file, place, "no 'mapping' of messages (not a ChatGPT conversation)")
    current = item.get("current_node")
    if not isinstance(current, str) or current not in mapping:
        raise ImportFormatError(file, f"{place}.current_node", "does not name a node of the mapping")
    turns: list[Turn] = []
    seen: set[str] = set()
    node_id: Any = current
    while node_id is not None:
        where = f"{place}.mapping[{_id(node_id)}]"
        if not isinstance(node_id, str) or node_id in seen or node_id not in mapping:
            raise ImportFormatError(file, where, "the parent chain is broken or loops")
        seen.add(node_id)
        node = expect_object(mapping[node_id], file, where)
        turn = _turn(node.get("message"), file, where, node_id)
        if turn is not None:
            turns.append(turn)
        node_id = node.get("parent")
    turns.reverse()
    key = item.get("conversation_id") or item.get("id") or place
    return Conversation(
        key=str(key),
        title=str(item.get("title") or "untitled"),
        started_at=epoch_time(item.get("create_time")) or (turns[0].time if turns else None),
        turns=tuple(turns),
        place=place,
    )


def _id(node_id: Any) -> str:
    """A node's id as an error may name it: an id, never other content of the file."""
    return repr(node_id[:64]) if isinstance(node_id, str) else "(not an id)"


def _turn(message: Any, file: str, place: str, node_id: str) -> Turn | None:
    if message is None:
        return None  # the root node carries no message
    message = expect_object(message, file, f"{place}.message")
    author = message.get("author")
    role = author.get("role") if isinstance(author, dict) else None
    if role not in ROLES:
        return None
    content = message.get("content")
    if not isinstance(content, dict) or not isinstance(content.get("parts", []), list):
        raise ImportFormatError(file, f"{place}.message.content", "expected an object with a list of 'parts'")
    text = "\n".join(part for part in content.get("parts", []) if isinstance(part, str)).strip()
    if not text:
        return None
    return Turn(ROLES[role], text, epoch_time(message.get("create_time")), str(message.get("id") or node_id))
