"""Turning user text into a safe FTS5 query: words only, each quoted, never FTS syntax."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+", re.UNICODE)
_STOPWORDS = frozenset(
    """
    a an and are as at be but by do does did for from has have how i if in into is it its me my no not of on or
    our so that the their them then there these they this to was we were what when where which who why will with
    you your about should would could can
    """.split()
)
MAX_TERMS = 32


def query_terms(text: str) -> list[str]:
    words = [w.casefold() for w in _WORD.findall(text)]
    kept = [w for w in words if w not in _STOPWORDS] or words
    seen: list[str] = []
    for word in kept:
        if word not in seen:
            seen.append(word)
    return seen[:MAX_TERMS]


def fts_query(text: str) -> str | None:
    """`"w1" OR "w2" ...`: every term quoted, so no user string is parsed as FTS syntax."""
    terms = query_terms(text)
    if not terms:
        return None
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)
