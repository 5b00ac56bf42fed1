"""Turning user text into the terms a search asks the store for: words only, never query syntax.

Two indexes are asked: the word index (diacritics removed) with a light suffix-stripping prefix
match, and the trigram index for partial words and for scripts written without spaces (Japanese,
Chinese). The store's engine builds its own query from these terms (`core/store/sqlcipher/match.py`
quotes every one), so no user string is ever parsed as query syntax.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from memvault.core.runtime.text_caches import keeps_text

_WORD = re.compile(r"\w+", re.UNICODE)
_STOPWORDS = frozenset(
    """
    a an and are as at be but by do does did for from has have how i if in into is it its me my no not of on or
    our so that the their them then there these they this to was we were what when where which who why will with
    you your about should would could can am any all also been being had here just more most now only other out
    over same some such than too very whom whose tell know remember anything something did said
    he him his himself she her hers herself themselves yourself ourselves s t d ll re ve
    """.split()
)
MAX_TERMS = 32
# A request about the person: never skipped as general knowledge, creative writing or off-topic.
_PERSONAL = re.compile(
    r"\b(i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|our|ours|us|remind|remember|"
    r"usual|usually|prefer|preference|favou?rite|project|plan|plans|decided|decision)\b",
    re.IGNORECASE,
)
_SUFFIXES = ("ations", "ation", "ings", "ing", "ies", "ied", "es", "ed", "ly", "s")
# Han, Hiragana, Katakana, Hangul: scripts where words are not separated by spaces.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def _fold(text: str) -> str:
    if text.isascii():  # the common case: nothing to decompose, and casefold is lower
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def is_personal(text: str) -> bool:
    """Whether the request speaks of the person (I, my, we, our, prefer, decided, ...)."""
    return _PERSONAL.search(text) is not None


def query_terms(text: str) -> list[str]:
    words = [w.casefold() for w in _WORD.findall(text)]
    kept = [w for w in words if w not in _STOPWORDS] or words
    seen: list[str] = []
    for word in kept:
        if word not in seen:
            seen.append(word)
    return seen[:MAX_TERMS]


_LEADING_NAME = re.compile(r"\s*([^\W\d_][\w-]*)")


def request_names(text: str) -> frozenset[str]:
    """The capitalised words of a request that are not function words: the names it asks about
    (folded). The first word of a question is usually a question word, which the stopwords drop."""
    return frozenset(
        _fold(w) for w in _WORD.findall(text) if w[0].isupper() and w != "I" and w.casefold() not in _STOPWORDS
    )


@keeps_text
@lru_cache(maxsize=16384)
def leading_name(text: str) -> str | None:
    """The capitalised word a statement starts with (its subject, or the speaker of a turn written
    "Name: ..."), folded; None when it starts otherwise or with "I"."""
    match = _LEADING_NAME.match(text)
    if match is None or not match.group(1)[0].isupper() or match.group(1) == "I":
        return None
    return _fold(_WORD.findall(match.group(1))[0])  # words as `request_names` splits them


# A turn of a stored conversation: "Name: text" or "Name Surname: text".
_SPEAKER = re.compile(r"\s*([^\W\d_][\w-]*)( [^\W\d_][\w-]*)?:\s")


def speaker_of(text: str) -> str | None:
    """The (first) name of the speaker of a turn written "Name: text", folded; None for other text."""
    match = _SPEAKER.match(text)
    if match is None or not all(part.strip()[0].isupper() for part in match.groups() if part):
        return None
    return _fold(_WORD.findall(match.group(1))[0])  # words as `request_names` splits them


def stem(word: str) -> str:
    """A crude suffix strip, enough for a prefix match to join plural, verb and noun forms."""
    for suffix in _SUFFIXES:
        if len(word) - len(suffix) >= 4 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def word_terms(text: str) -> list[tuple[str, bool]]:
    """The word-index terms of a request: (term, is_prefix). Longer words match by their stem's prefix.

    Terms are folded the way the index folds them (case, diacritics), so that their
    document frequencies can be looked up.
    """
    terms: list[tuple[str, bool]] = []
    for word in query_terms(text):
        if _CJK.search(word):
            continue  # the trigram index handles these
        root = _fold(stem(word))
        term = (root, True) if len(root) >= 4 else (_fold(word), False)
        if term not in terms:
            terms.append(term)
    return terms


def has_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


@keeps_text
@lru_cache(maxsize=16384)
def folded(text: str) -> str:
    return _fold(text)


@keeps_text
@lru_cache(maxsize=16384)
def index_words(text: str) -> frozenset[str]:
    """The words of a text as the word index sees them (folded)."""
    if text.isascii():  # folding is lowering, which moves no word boundary: fold once
        return frozenset(_WORD.findall(text.lower()))
    return frozenset(_fold(w) for w in _WORD.findall(text))


@keeps_text
@lru_cache(maxsize=16384)
def sorted_words(text: str) -> tuple[str, ...]:
    """`index_words`, sorted: a term, or the words starting with a prefix, are found by bisection."""
    return tuple(sorted(index_words(text)))


def cjk_runs(text: str) -> list[str]:
    runs: list[str] = []
    current = ""
    for char in text:
        if _CJK.match(char):
            current += char
        else:
            if current:
                runs.append(current)
            current = ""
    if current:
        runs.append(current)
    return runs


def trigram_terms(text: str) -> list[str]:
    """Substrings to look up in the trigram index: CJK text as overlapping trigrams,
    other words (at least 4 letters, not stopwords) whole, which finds them inside longer words."""
    terms: list[str] = []
    for run in cjk_runs(text):
        if len(run) >= 3:
            terms += [run[i : i + 3] for i in range(len(run) - 2)]
    for word in query_terms(_CJK.sub(" ", text)):
        folded = _fold(word)
        if len(folded) >= 4 and not folded.isdigit():
            terms.append(folded)
    unique: list[str] = []
    for term in terms:
        if term not in unique:
            unique.append(term)
    return unique[:MAX_TERMS]


def short_cjk_terms(text: str) -> list[str]:
    """CJK runs of two characters: too short for the trigram index, matched with LIKE instead."""
    return [run for run in cjk_runs(text) if len(run) == 2][:4]
