"""The words stage's kept counts: the store's own answers while it is unchanged, new ones after a write."""

from __future__ import annotations

from memvault.core.retrieval import query as q
from memvault.core.retrieval.hybrid import Gathered, WordCounts, gather_lexical
from memvault.core.retrieval.pipeline import HybridRetriever
from memvault.core.retrieval.ranking_cache import stamp
from memvault.core.store.sqlcipher import search as sql
from memvault.core.store.sqlcipher import store_stamps
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Caller, Surface
from memvault.core.vocabulary.search_request import SearchRequest

REMOTE = Caller("remote-bot", Surface.REMOTE)


def _add(vault: Vault, statement: str, **fields: object) -> None:
    assert vault.add(OWNER, Draft.of(statement=statement, **fields))["outcome"] == "added"


def test_counts_are_the_stores_and_follow_its_writes(vault: Vault) -> None:
    _add(vault, "The plumber fixes the kitchen sink on Monday", domain="home")
    _add(vault, "The plumber charged too much", domain="home", access_scope="remote_allowed")
    terms = q.word_terms("plumber kitchen charges")
    counts = WordCounts()
    with vault.ctx.reading() as conn:
        version = stamp(store_stamps.read(conn.raw))
        for caller, direct in ((OWNER, sql.document_frequencies), (REMOTE, sql.visible_frequencies)):
            expected = direct(conn.raw, terms) if caller is OWNER else direct(conn.raw, caller, terms)
            assert counts.frequencies(conn, caller, terms, version) == expected
        assert counts.frequencies(conn, OWNER, terms, version)["plumber"].docs == 2
        assert counts.frequencies(conn, REMOTE, terms, version)["plumber"].docs == 1  # its own part of the store
        assert counts.total(conn, REMOTE, version) == sql.visible_count(conn.raw, REMOTE) == 1
    _add(vault, "Another plumber quoted for the kitchen", domain="home", access_scope="remote_allowed")
    with vault.ctx.reading() as conn:
        version = stamp(store_stamps.read(conn.raw))
        assert counts.frequencies(conn, OWNER, terms, version)["plumber"].docs == 3
        assert counts.frequencies(conn, REMOTE, terms, version)["plumber"].docs == 2
        assert counts.total(conn, REMOTE, version) == 2


def test_searches_rank_alike_with_kept_counts(vault: Vault) -> None:
    _add(vault, "The plumber fixes the kitchen sink on Monday", domain="home")
    _add(vault, "The kitchen tiles are blue", domain="home")
    _add(vault, "Monday is the plumber's day off", domain="home")
    request = SearchRequest.of(query="when does the plumber come to the kitchen").browsing()
    first = vault.search(OWNER, request)
    assert isinstance(vault.retriever, HybridRetriever)
    vault.retriever.clear_caches()  # ranked again, now from the kept counts
    again = vault.search(OWNER, request)
    assert [(h["id"], h["score"]) for h in again["results"]] == [(h["id"], h["score"]) for h in first["results"]]
    assert len(first["results"]) >= 2


def test_a_prefix_with_one_word_is_looked_up_as_that_word(vault: Vault) -> None:
    """`"plumber"*` covers one indexed word ("plumber") until "plumbers" is written: while it does, the
    words stage asks FTS5 for the word (cheaper), which matches the same records with the same bm25."""
    _add(vault, "The plumber fixes the kitchen sink on Monday", domain="home")
    _add(vault, "The plumber charged too much for the kitchen", domain="home")
    _add(vault, "Kitchen tiles are blue", domain="home")
    request = SearchRequest.of(query="plumbers in the kitchen")
    terms = q.word_terms(request.query)
    assert ("plumber", True) in terms and ("kitchen", True) in terms
    with vault.ctx.reading() as conn:
        found = sql.document_frequencies(conn.raw, terms)
        assert found["plumber"] == sql.TermCount(2, "plumber")
        assert found["kitchen"] == sql.TermCount(3, "kitchen")
        assert sql.visible_frequencies(conn.raw, REMOTE, terms)["plumber"] == sql.TermCount(0)  # counts only
        by_prefix = sql.lexical_candidates(conn.raw, OWNER, terms, request, 10)
        by_word = sql.lexical_candidates(conn.raw, OWNER, [("plumber", False), ("kitchen", False)], request, 10)
        assert [(m.id, s) for m, s in by_prefix] == [(m.id, s) for m, s in by_word] and len(by_word) == 3
        gathered = Gathered()
        gather_lexical(conn, OWNER, request, 10, gathered)
        assert {k: f.word_bm25 for k, f in gathered.found.items()} == {m.id: s for m, s in by_prefix}
    _add(vault, "Two plumbers quoted for the bathroom", domain="home")
    with vault.ctx.reading() as conn:
        assert sql.document_frequencies(conn.raw, terms)["plumber"] == sql.TermCount(3, None)  # two words now
        gathered = Gathered()
        gather_lexical(conn, OWNER, request, 10, gathered)
        assert len(gathered.found) == 4  # the prefix still finds every form


def test_words_no_record_holds_are_not_asked(vault: Vault) -> None:
    """A term no record holds matches nothing and adds 0 to bm25: the word-index query leaves it out,
    and a request made only of such words does not ask the word index at all."""
    _add(vault, "The plumber fixes the kitchen sink on Monday", domain="home")
    _add(vault, "Kitchen tiles are blue", domain="home")
    asked: list[str] = []
    with vault.ctx.reading() as conn:
        conn.raw.set_trace_callback(asked.append)
        try:
            with_absent = Gathered()
            gather_lexical(conn, OWNER, SearchRequest.of(query="zanzibar kitchen tiles"), 10, with_absent)
            first = [s for s in asked if s.startswith("SELECT") and "FROM memory_fts WHERE" in s]
            asked.clear()
            gather_lexical(conn, OWNER, SearchRequest.of(query="zanzibar quetzal"), 10, Gathered())
            second = [s for s in asked if s.startswith("SELECT") and "FROM memory_fts WHERE" in s]
        finally:
            conn.raw.set_trace_callback(None)
        present = sql.lexical_candidates(
            conn.raw, OWNER, [("kitchen", False), ("tiles", False)], SearchRequest.of(query="x"), 10
        )
    assert len(first) == 1 and "zanzibar" not in first[0] and '"kitchen"' in first[0]
    assert {k: f.word_bm25 for k, f in with_absent.found.items()} == {m.id: s for m, s in present}
    assert len(present) == 2 and second == []
