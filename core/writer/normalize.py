"""The duplicate rule and the chatter filter.

Two statements are duplicates when they are equal after Unicode NFKC, case
folding, collapsing white space and dropping trailing punctuation (the contract's
rule), in the same domain and type.
"""

from __future__ import annotations

import re
import unicodedata

_SPACE = re.compile(r"\s+")
_TRAILING_PUNCTUATION = re.compile(r"[\s.,;:!?…。、！？]+$")  # noqa: RUF001 - CJK punctuation too
_WORD = re.compile(r"\w+", re.UNICODE)

# Words that carry no durable content on their own.
_CHATTER = frozenset(
    """
    ok okay k sure yes yeah yep no nope thanks thank you thx ty hi hello hey bye goodbye lol haha cool great nice
    fine good awesome wow hmm um uh please sorry got it alright right indeed that this is the a an
    test testing asdf foo bar baz
    """.split()
)


def normalize_statement(statement: str) -> str:
    text = unicodedata.normalize("NFKC", statement).casefold()
    text = _SPACE.sub(" ", text).strip()
    return _TRAILING_PUNCTUATION.sub("", text)


def is_chatter(statement: str) -> bool:
    """True for statements with nothing durable in them: empty, filler only, or no words."""
    words = _WORD.findall(normalize_statement(statement))
    if not words:
        return True
    return all(word in _CHATTER for word in words)
