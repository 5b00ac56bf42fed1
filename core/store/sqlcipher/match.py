"""FTS5 syntax, built here from the terms retrieval hands down: no caller's string is ever parsed as
query syntax (each term is quoted)."""

from __future__ import annotations

from collections.abc import Sequence

from memvault.core.store.rows import WordTerm


def quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def any_word(words: Sequence[str]) -> str:
    """`"w1" OR "w2" ...`: records holding any of the words."""
    return " OR ".join(quoted(word) for word in words)


def any_term(terms: Sequence[WordTerm]) -> str:
    """Like `any_word`, a prefix term matching every word that starts with it."""
    return " OR ".join(quoted(term) + ("*" if prefix else "") for term, prefix in terms)


def every_term(terms: Sequence[WordTerm]) -> str:
    """Like `any_term`, records holding all of the terms."""
    return " AND ".join(quoted(term) + ("*" if prefix else "") for term, prefix in terms)
