"""A shipped linear head over hashed character n-grams: the writer's measured judgements.

Each head (passing mood, a credential in a sentence, a sensitive matter) is a weight per bucket of
3- to 5-character n-grams of the lowered text with digits folded to 0, trained on the tuning part of
tests/writer_eval (fictional statements in English, German, French and Spanish, split by template
before any tuning) by tests/writer_eval/train_heads.py, which also prints the held-out figures. It
needs no model and no numpy: a statement costs a few hundred dictionary look-ups, and n-grams carry
across the four languages' shared stems ("therap", "diagnos", "passw").

The weights ship in resources/writer/ with a pinned sha256 and the decision threshold folded into
the bias (a score above 0 says yes); a file that does not match its pin is never used, and the head
answers None (the rules beside it still apply).
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
_DIGIT = re.compile(r"\d")
_SPACE = re.compile(r"\s+")


def pin(weights: bytes, meta: bytes) -> str:
    """The sha256 a head's files are pinned by."""
    return hashlib.sha256(weights + meta).hexdigest()


def features(text: str) -> dict[int, float]:
    """The text's n-gram buckets with their L2-normalised counts."""
    folded = " " + _DIGIT.sub("0", _SPACE.sub(" ", text.lower()).strip()) + " "  # tabs and runs of spaces as one
    counts: dict[int, float] = {}
    for size in SIZES:
        for start in range(len(folded) - size + 1):
            # A lone surrogate hashes as its code point: the head never fails on text it is shown.
            bucket = zlib.crc32(folded[start : start + size].encode("utf-8", "surrogatepass")) % BUCKETS
            counts[bucket] = counts.get(bucket, 0.0) + 1.0
    norm = math.sqrt(sum(v * v for v in counts.values())) or 1.0
    return {bucket: value / norm for bucket, value in counts.items()}


class NgramHead:
    """The head shipped as resources/writer/<name>_head.bin (float32 weights) and .json (its bias)."""

    def __init__(self, name: str, sha256: str) -> None:
        self.name = name
        self.sha256 = sha256

    @functools.cached_property
    def _weights(self) -> tuple[array[float], float] | None:
        folder = resources.files("memvault.resources").joinpath("writer")
        try:
            data = folder.joinpath(f"{self.name}_head.bin").read_bytes()
            meta_bytes = folder.joinpath(f"{self.name}_head.json").read_bytes()
            meta = json.loads(meta_bytes)
        except (OSError, ValueError) as error:
            log.warning("no %s head (%s): the rules alone judge", self.name, type(error).__name__)
            return None
        if pin(data, meta_bytes) != self.sha256:
            log.warning("the %s head does not match its pinned sha256: the rules alone judge", self.name)
            return None
        weights = array("f")
        weights.frombytes(data)
        return (weights, float(meta["bias"])) if len(weights) == BUCKETS else None

    def score(self, text: str) -> float | None:
        """Above 0: yes. None without a usable head."""
        head = self._weights
        if head is None:
            return None
        weights, bias = head
        return bias + sum(weights[bucket] * value for bucket, value in features(text).items())

    def says(self, text: str) -> bool:
        score = self.score(text)
        return score is not None and score > 0
