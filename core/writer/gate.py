"""The writer gate every write passes: secrets, chatter and passing moods are refused before anything is stored."""

from __future__ import annotations

from collections.abc import Iterable

from memvault.core.writer import sensitivity
from memvault.core.writer.mood import is_passing_mood
from memvault.core.writer.normalize import is_chatter
from memvault.core.writer.secrets import find_secrets, said_in_prose, secrets_in


def warm() -> None:
    """Load what the first scans load (detect-secrets and its imports, the look-alike table: ~0.4 s
    of CPU), so that a long-lived server's first write does not pay for it."""
    # A key-like line (detect-secrets' scan runs) that is not ASCII (the look-alike table is built).
    find_secrets("warm up the détecteurs with AKIA0000000000000000")
    is_passing_mood("warm up the mood head")
    said_in_prose("warm up the door code head: 4711")
    sensitivity.judged("warm up the therapy head")


def secret_rejection(texts: Iterable[str | None]) -> str | None:
    """Why text stored beside a write (a reason, evidence) must be refused: it holds a secret."""
    found = secrets_in([t for t in texts if t])
    if found:
        return f"refused: it looks like it holds a secret ({', '.join(found)}); secrets are never stored"
    return None


def rejection(statement: str, other_text: Iterable[str | None] = ()) -> str | None:
    """Why this write must be refused, or None. The reason names a class, never the secret."""
    refused = secret_rejection([statement, *other_text])
    if refused:
        return refused
    if is_chatter(statement):
        return "refused: nothing durable to remember (empty or chatter)"
    if is_passing_mood(statement):
        return "refused: a passing mood, not a durable fact (moods are not remembered)"
    return None
