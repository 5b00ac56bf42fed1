"""The writer gate every write passes: secrets and chatter are refused before anything is stored."""

from __future__ import annotations

from collections.abc import Iterable

from memvault.core.writer.normalize import is_chatter
from memvault.core.writer.secrets import find_secrets


def rejection(statement: str, other_text: Iterable[str | None] = ()) -> str | None:
    """Why this write must be refused, or None. The reason names a class, never the secret."""
    found = find_secrets("\n".join([statement, *(t for t in other_text if t)]))
    if found:
        return f"refused: it looks like it holds a secret ({', '.join(found)}); secrets are never stored"
    if is_chatter(statement):
        return "refused: nothing durable to remember (empty or chatter)"
    return None
