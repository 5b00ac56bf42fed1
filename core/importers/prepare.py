"""From an extracted sentence to a draft memory with provenance, sensitivity, validity and project.

Provenance is a pointer (format, conversation id, message id) plus the sha256 of the message
text; the conversation itself is never copied into the record.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from memvault.core.importers.extract import Extracted
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import Explicitness
from memvault.core.writer import sensitivity

MAX_POINTER = 200
_PROJECT = re.compile(r"\b(?:the|our|my) ([A-Z][\w-]{1,40}) project\b|\bproject ([A-Z][\w-]{1,40})\b")
STRONG_CONFIDENCE, WEAK_CONFIDENCE = 0.75, 0.5


@dataclass(frozen=True)
class Prepared:
    draft: Draft
    item: Extracted
    pointer: str


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def pointer_of(fmt: str, item: Extracted) -> str:
    return f"{fmt}:{item.conversation.key}#{item.turn.ref}"[:MAX_POINTER]


def prepare(fmt: str, item: Extracted) -> Prepared:
    pointer = pointer_of(fmt, item)
    project = _PROJECT.search(item.statement)
    tags = [f"project:{project.group(1) or project.group(2)}"] if project else []
    when = item.turn.time or item.conversation.started_at
    draft = Draft(
        statement=item.statement,
        type=item.type,
        tags=tags,
        confidence=WEAK_CONFIDENCE if item.weak else STRONG_CONFIDENCE,
        importance=0.5,
        explicitness=Explicitness.EXPLICIT,
        source=f"import:{fmt}",
        source_reference=pointer,
        evidence=f"{pointer} sha256:{text_hash(item.turn.text)}",
        event_time=when,
        sensitivity=sensitivity.judged(item.statement),
    )
    return Prepared(draft, item, pointer)
