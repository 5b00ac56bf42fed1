"""The word index held in memory ranks as FTS5 does, to the bit, and follows the store's writes."""

from __future__ import annotations

import gc
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault.core.retrieval import word_postings
from memvault.core.retrieval.pipeline import HybridRetriever
from memvault.core.retrieval.ranking_cache import stamp
from memvault.core.retrieval.word_postings import WordPostings
from memvault.core.runtime import text_caches
from memvault.core.store.sqlcipher import search as sql
from memvault.core.store.sqlcipher import store_stamps
from memvault.core.store.sqlcipher.match import any_term
from memvault.core.store.sqlcipher.word_index_rows import WORD_TOKENIZER
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import PurgeRequest
from memvault.core.vocabulary.search_request import SearchRequest

# Fictional words sharing prefixes (a prefix term covers several), some short enough to be exact terms.
WORDS = (
    "garden gardens gardener gardening plum plumber plumbing tile tiles tiled kitchen kit kite kites lamp"
    " lamps lantern harbour harbours harp ferry ferries fern ledger ledgers legend oak oat oats pier piers"
).split()
NAMES = ["Ilse", "Oskar", "Femi", "Kaia", "Harbour"]  # a name that is also a word: two columns hold it


def _fill(vault: Vault, rng: random.Random, n: int) -> list[str]:
    ids = []
    for _ in range(n):
        statement = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 12)))
        draft = Draft.of(
            statement=statement,
            domain="home",
            tags=rng.sample(WORDS, rng.randint(0, 2)),
            entities=rng.sample(NAMES, rng.randint(0, 2)),
        )
        added = vault.add(OWNER, draft)
        if added["outcome"] == "added":
            ids.append(added["id"])
    return ids


def _queries(rng: random.Random, n: int) -> Iterator[list[tuple[str, bool]]]:
    for _ in range(n):
        terms: list[tuple[str, bool]] = []
        for word in rng.sample([*WORDS, "missing"], rng.randint(1, 4)):
            term = (word[: rng.randint(3, len(word))], True) if rng.random() < 0.5 else (word, False)
            if term not in terms:
                terms.append(term)
        yield terms


def _assert_ranks_as_fts5(vault: Vault, postings: WordPostings, rng: random.Random, n: int = 60) -> int:
    """Every query's best 1, 5, 40 and 400 as FTS5's; answers how many matched more than 5 records."""
    long = 0
    with vault.ctx.reading() as conn:
        postings.refresh(conn, stamp(store_stamps.read(conn.raw)))
        for terms in _queries(rng, n):
            ranker = postings.ranker(terms)
            assert ranker is not None
            for size in (1, 5, 40, 400):
                expected = sql._best_matches(
                    conn.raw, "memory_fts", sql.FTS_TABLES["memory_fts"], any_term(terms), size
                )
                assert ranker(size) == expected, (terms, size)
            long += len(expected) > 5
    return long


@pytest.fixture
def lexical(vault: Vault) -> Vault:
    vault.set_setting(OWNER, "embeddings", "off")  # words only: the test writes many records
    return vault


def test_postings_rank_as_fts5_does(lexical: Vault) -> None:
    rng = random.Random(7)
    _fill(lexical, rng, 150)
    assert _assert_ranks_as_fts5(lexical, WordPostings(sql.WORD_WEIGHTS), rng, 120) > 50


def test_postings_follow_writes_purges_and_a_reused_rowid(lexical: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(word_postings, "MERGE_AT", 150)  # the postings written since are folded in, twice or so
    rng = random.Random(11)
    _fill(lexical, rng, 40)
    postings = WordPostings(sql.WORD_WEIGHTS)
    _assert_ranks_as_fts5(lexical, postings, rng)
    for _ in range(4):
        _fill(lexical, rng, 12)
        _assert_ranks_as_fts5(lexical, postings, rng, 20)

    last = _fill(lexical, rng, 1)[0]
    lexical.add(OWNER, Draft.of(statement="the quartzfern ledger", domain="home"))
    with lexical.ctx.reading() as conn:
        postings.refresh(conn, stamp(store_stamps.read(conn.raw)))
    assert "quartzfern" in postings
    for record in (last, lexical.search(OWNER, SearchRequest.of(query="quartzfern"))["results"][0]["id"]):
        request = lexical.request_purge(OWNER, PurgeRequest.of(id=record, reason="a test of the postings"))
        lexical.confirm_purge(OWNER, request["request_id"])
    assert "quartzfern" not in postings  # a purge empties the postings at once
    _fill(lexical, rng, 3)  # the purged rowids are given again
    _assert_ranks_as_fts5(lexical, postings, rng)
    assert "quartzfern" not in postings


def test_many_records_written_since_load_the_whole_again(lexical: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(word_postings, "TAKE_AT_MOST", 5)
    rng = random.Random(5)
    _fill(lexical, rng, 20)
    postings = WordPostings(sql.WORD_WEIGHTS)
    _assert_ranks_as_fts5(lexical, postings, rng, 10)
    _fill(lexical, rng, 4)  # taken one by one
    _assert_ranks_as_fts5(lexical, postings, rng, 10)
    assert postings._added
    _fill(lexical, rng, 12)  # more than TAKE_AT_MOST: the whole again, nothing kept aside
    _assert_ranks_as_fts5(lexical, postings, rng, 10)
    assert not postings._added


def test_terms_fts5_would_tokenize_otherwise_are_left_to_it(lexical: Vault) -> None:
    lexical.add(OWNER, Draft.of(statement="Crème brûlée at the café on the pier", domain="home"))
    lexical.add(OWNER, Draft.of(statement="the snake_case name of the pier script", domain="home"))
    postings = WordPostings(sql.WORD_WEIGHTS)
    with lexical.ctx.reading() as conn:
        postings.refresh(conn, stamp(store_stamps.read(conn.raw)))
    assert postings.ranker([("pier", False)]) is not None
    assert postings.ranker([("pier", False), ("café", False)]) is None  # FTS5 folds it: FTS5 ranks
    assert postings.ranker([("snake_case", False)]) is None  # FTS5 splits it into a phrase
    for query in ("café crème", "snake_case script"):
        assert lexical.search(OWNER, SearchRequest.of(query=query))["results"]


def test_searches_answer_alike_from_postings_and_from_fts5(lexical: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    _fill(lexical, random.Random(3), 80)
    retriever = lexical.retriever
    assert isinstance(retriever, HybridRetriever)
    queries = ["kitchen lamps by the harbour", "Ilse and the gardening ledger", "ferries to the piers", "oak kites"]
    answers = [lexical.search(OWNER, SearchRequest.of(query=text).browsing())["results"] for text in queries]
    assert len(retriever._postings._terms) > 0  # the searches above were ranked from the postings
    retriever.clear_caches()
    monkeypatch.setattr(WordPostings, "ranker", lambda self, terms: None)  # FTS5 ranks every match
    again = [lexical.search(OWNER, SearchRequest.of(query=text).browsing())["results"] for text in queries]
    assert again == answers
    assert all(answers)


def test_the_scratch_tokenizer_is_the_word_index_s(vault: Vault) -> None:
    (schema,) = vault.ctx.store.raw.execute("SELECT sql FROM sqlite_master WHERE name = 'memory_fts'").fetchone()
    assert f"tokenize = '{WORD_TOKENIZER}'" in schema


def test_an_empty_index_is_held_and_ranks_nothing(lexical: Vault) -> None:
    postings = WordPostings(sql.WORD_WEIGHTS)
    with lexical.ctx.reading() as conn:
        postings.refresh(conn, stamp(store_stamps.read(conn.raw)))
    ranker = postings.ranker([("pier", False), ("lamp", True)])
    assert ranker is not None and ranker(10) == []
    lexical.add(OWNER, Draft.of(statement="the lamp on the pier", domain="home"))
    assert lexical.search(OWNER, SearchRequest.of(query="pier lamps"))["results"]


def test_postings_leave_the_purge_registry_when_they_go() -> None:
    postings = WordPostings(sql.WORD_WEIGHTS)
    registered = text_caches._CLEARS[-1]  # the postings' own (other stores' come and go)
    del postings
    gc.collect()
    assert registered not in text_caches._CLEARS


def test_opening_a_store_does_not_import_numpy(home: Path) -> None:
    """The postings load numpy at their first load (a search), not when a store opens (every command)."""
    probe = (
        "import sys\nfrom pathlib import Path\nfrom memvault.core.vault import Vault\n"
        f"Vault.open(Path({str(home)!r})).close()\nprint('numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
