"""The words stage's coverage tests (bisection of the words; a search of lowered ASCII text) answer exactly
what a scan of the words answers."""

from __future__ import annotations

import itertools

from memvault.core.retrieval import query as q
from memvault.core.retrieval.hybrid import _holds, _Weighed

TEXTS = [
    "Paneling the panel room; the pan was panned (panels, PANEL)",
    "Chidi booked the library panel for Thursday",
    "Ça coûte trop cher à Zürich: café, crème brûlée",
    "a b ab abc abcd abcde",
    "東京で会議 meeting in Tokyo",
    "pan_el x-panel panel2 Panel's PANELS 2pan _pan panel_x",
    "",
]
TERMS = [
    (term, prefix)
    for term, prefix in itertools.product(
        [
            "pan",
            "panel",
            "paneling",
            "panels",
            "pane",
            "a",
            "ab",
            "abcdef",
            "zurich",
            "zur",
            "cafe",
            "creme",
            "z",
            "",
            "2",
            "_",
            "panel_x",
            "pan_el",
            "x-panel",
            "panel's",
            "会議",
        ],
        [True, False],
    )
]


def _scanned(term: str, prefix: bool, words: frozenset[str]) -> bool:
    """The rule itself, by scanning every word: a word equal to the term, or starting with it."""
    return any(w.startswith(term) for w in words) if prefix else term in words


def test_holds_agrees_with_a_scan_for_every_term_and_text() -> None:
    for text in TEXTS:
        words, sorted_words = q.index_words(text), q.sorted_words(text)
        for term, prefix in TERMS:
            assert _holds(sorted_words, term, prefix) == _scanned(term, prefix, words), (text, term, prefix)


def test_coverage_of_one_term_agrees_with_a_scan_on_either_path() -> None:
    # ASCII text and a term of letters, digits and underscores take the search of the lowered text;
    # the rest the bisection of the words.
    for text in TEXTS:
        words = q.index_words(text)
        for term, prefix in TERMS:
            weighed = _Weighed([(term, prefix)], {term: 1.0})
            assert weighed.share(text) == float(_scanned(term, prefix, words)), (text, term, prefix)
    assert _Weighed([("pan", True)], {"pan": 1.0}).plain and not _Weighed([("x-pan", True)], {"x-pan": 1.0}).plain


def test_coverage_is_the_idf_weighted_share_of_terms_present() -> None:
    text = "Chidi booked the library panel for Thursday"
    terms = [("chidi", False), ("librar", True), ("choir", True), ("due", False)]
    idf = {"chidi": 2.0, "librar": 1.0, "choir": 3.0, "due": 4.0}
    assert _Weighed(terms, idf).share(text) == (2.0 + 1.0) / 10.0
    assert _Weighed(terms, {}).share(text) == 0.0


def test_index_words_fold_each_word_as_the_index_does() -> None:
    # ASCII text is lowered once; other text word by word (folding may change its boundaries).
    for text in [*TEXTS, "Straße ﬁne Ǆemal İstanbul", "MIXED case_words and-dashes 42x"]:
        assert q.index_words(text) == frozenset(q._fold(w) for w in q._WORD.findall(text)), text
        assert q.sorted_words(text) == tuple(sorted(q.index_words(text)))
