"""What the PostgreSQL engine indexes of a text, folded as the SQLCipher engine's indexes fold it
(case and diacritics gone): words for the tsvector ('simple' configuration: no language's stemming;
retrieval hands down folded terms), and the trigrams of memvault's own fragment index."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

# Letters whose stroke is part of the letter, not a combining mark: Unicode does not decompose them,
# and FTS5's remove_diacritics folds them all the same.
_STROKED = str.maketrans("øØđĐłŁħĦŧŦı", "oOdDlLhHtTi")


def folded(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_STROKED))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def trigrams(text: str) -> set[str]:
    """Every run of three characters of the folded text (spaces included, as FTS5's trigram tokenizer)."""
    plain = folded(text)
    return {plain[i : i + 3] for i in range(len(plain) - 2)}


# A record's words: statement (weight A), tags (B), entity names (C); each argument already folded.
WORDS_OF = (
    "setweight(to_tsvector('simple', %s), 'A') || setweight(to_tsvector('simple', %s), 'B')"
    " || setweight(to_tsvector('simple', %s), 'C')"
)


def tsquery_term(term: str, prefix: bool) -> str:
    """One term of a tsquery, quoted so that no character in it is read as tsquery syntax ("" for an
    empty term: to_tsquery refuses an empty quoted one, and reads "" as matching nothing)."""
    if not term.strip():
        return ""
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'" + (":*" if prefix else "")


def any_term(terms: Iterable[tuple[str, bool]]) -> str:
    """A tsquery for records holding any of the terms."""
    return " | ".join(part for term, prefix in terms if (part := tsquery_term(term, prefix)))


def every_term(terms: Iterable[tuple[str, bool]]) -> str:
    """A tsquery for records holding all of the terms."""
    return " & ".join(part for term, prefix in terms if (part := tsquery_term(term, prefix)))
