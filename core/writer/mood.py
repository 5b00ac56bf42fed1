"""Passing moods ("so tired and grumpy today", "boah, mega grantig heute Abend"): kept out of memory.

A linear head over hashed character n-grams (3 to 5 characters of the lowered text, digits folded
to 0), trained on the tuning part of tests/writer_eval (fictional statements in English, German,
French and Spanish, split by template before any tuning) by tests/writer_eval/train_mood.py, which
also prints its figures on the held-out part. It needs no model and no numpy: a statement costs a
few hundred dictionary look-ups. The weights ship in resources/writer/ with a pinned sha256; a file
that does not match is never used (the rule in normalize.py still applies).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import re
import zlib
from array import array
from importlib import resources

log = logging.getLogger("memvault.writer")

BUCKETS = 1 << 14
SIZES = (3, 4, 5)
WEIGHTS_SHA256 = "b37dfe41df2ca00d7feb2da44778950f3a3a94bbe6159b915a461c4548167d52"
_DIGIT = re.compile(r"\d")


def features(text: str) -> dict[int, float]:
    """The statement's n-gram buckets with their L2-normalised counts."""
    folded = " " + _DIGIT.sub("0", text.lower()) + " "
    counts: dict[int, float] = {}
    for size in SIZES:
        for start in range(len(folded) - size + 1):
            bucket = zlib.crc32(folded[start : start + size].encode("utf-8")) % BUCKETS
            counts[bucket] = counts.get(bucket, 0.0) + 1.0
    norm = math.sqrt(sum(v * v for v in counts.values())) or 1.0
    return {bucket: value / norm for bucket, value in counts.items()}


@functools.cache
def _head() -> tuple[array[float], float] | None:
    folder = resources.files("memvault.resources").joinpath("writer")
    try:
        data = folder.joinpath("mood_head.bin").read_bytes()
        meta = json.loads(folder.joinpath("mood_head.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        log.warning("no mood head (%s): passing moods are judged by the rule alone", type(error).__name__)
        return None
    if hashlib.sha256(data).hexdigest() != WEIGHTS_SHA256:
        log.warning("the mood head does not match its pinned sha256: passing moods are judged by the rule alone")
        return None
    weights = array("f")
    weights.frombytes(data)
    return (weights, float(meta["bias"])) if len(weights) == BUCKETS else None


def mood_score(text: str) -> float | None:
    """The head's score (above 0: a passing mood), or None without a usable head."""
    head = _head()
    if head is None:
        return None
    weights, bias = head
    return bias + sum(weights[bucket] * value for bucket, value in features(text).items())


def is_passing_mood(text: str) -> bool:
    score = mood_score(text)
    return score is not None and score > 0
