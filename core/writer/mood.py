"""Passing moods ("so tired and grumpy today", "boah, mega grantig heute Abend"): kept out of memory.

Judged by an n-gram head (ngram_head.py) trained on the tuning part of tests/writer_eval by
tests/writer_eval/train_heads.py; without a usable head the chatter rule in normalize.py still applies.
"""

from __future__ import annotations

from memvault.core.writer.ngram_head import NgramHead
from memvault.core.writer.secret_text import fold

MOOD_HEAD = NgramHead("mood", "89e7d9a9553910daca4bfcdb9c192e13e459f060feb74fd4ebf429b51be294ac")


def is_passing_mood(text: str) -> bool:
    return MOOD_HEAD.says(fold(text))  # full-width or look-alike letters read as what they show
