"""Wallet seed phrases: a run of BIP-39 words (numbered or not) long enough to be a wallet's key.

The English word list comes from the `mnemonic` package (the reference implementation's
list). Ordinary prose never strings twelve of these words together without an article or
a preposition outside the list; after a word such as "seed" or "recovery phrase" eight do.
"""

from __future__ import annotations

import re
from functools import cache

_WORD = re.compile(r"[A-Za-z]+")
_SEED_WORDS = re.compile(
    r"\b(?:seed|mnemonic|recovery\s+(?:phrase|words)|secret\s+(?:recovery\s+)?phrase|wallet|backup\s+(?:phrase|words)|bip-?39"
    r"|wiederherstellungsphrase|phrase\s+de\s+récupération|frase\s+(?:semilla|de\s+recuperación))\b",
    re.IGNORECASE,
)
_RUN_ALONE = 12
_RUN_NAMED = 8


@cache
def _word_list() -> frozenset[str]:
    from mnemonic import Mnemonic  # noqa: PLC0415 - only on writes

    return frozenset(Mnemonic("english").wordlist)


def _longest_run(folded: str) -> int:
    words = _word_list()
    longest = run = 0
    # Numbers and punctuation between the words ("1. abandon 2. ability") do not break a run.
    for token in _WORD.findall(folded):
        run = run + 1 if token.lower() in words else 0
        longest = max(longest, run)
    return longest


def has_seed_phrase(folded: str) -> bool:
    run = _longest_run(folded)
    return run >= _RUN_ALONE or (run >= _RUN_NAMED and bool(_SEED_WORDS.search(folded)))
