"""The words stage's kept counts: the store's own answers while it is unchanged, new ones after a write."""

from __future__ import annotations

from memvault.core.drafts import Draft
from memvault.core.model import OWNER, Caller, Surface
from memvault.core.retrieval import query as q
from memvault.core.retrieval.hybrid import WordCounts
from memvault.core.retrieval.pipeline import HybridRetriever
from memvault.core.retrieval.ranking_cache import stamp
from memvault.core.search_request import SearchRequest
from memvault.core.store import search as sql
from memvault.core.store import store_stamps
from memvault.core.vault import Vault

REMOTE = Caller("remote-bot", Surface.REMOTE)


def _add(vault: Vault, statement: str, **fields: object) -> None:
    assert vault.add(OWNER, Draft.of(statement=statement, **fields))["outcome"] == "added"


def test_counts_are_the_stores_and_follow_its_writes(vault: Vault) -> None:
    _add(vault, "The plumber fixes the kitchen sink on Monday", domain="home")
    _add(vault, "The plumber charged too much", domain="home", access_scope="remote_allowed")
    terms = q.word_terms("plumber kitchen charges")
    counts = WordCounts()
    with vault.ctx.reading() as conn:
        version = stamp(store_stamps.read(conn))
        for caller, direct in ((OWNER, sql.document_frequencies), (REMOTE, sql.visible_frequencies)):
            expected = direct(conn, terms) if caller is OWNER else direct(conn, caller, terms)
            assert counts.frequencies(conn, caller, terms, version) == expected
        assert counts.frequencies(conn, OWNER, terms, version)["plumber"] == 2
        assert counts.frequencies(conn, REMOTE, terms, version)["plumber"] == 1  # its own part of the store
        assert counts.total(conn, REMOTE, version) == sql.visible_count(conn, REMOTE) == 1
    _add(vault, "Another plumber quoted for the kitchen", domain="home", access_scope="remote_allowed")
    with vault.ctx.reading() as conn:
        version = stamp(store_stamps.read(conn))
        assert counts.frequencies(conn, OWNER, terms, version)["plumber"] == 3
        assert counts.frequencies(conn, REMOTE, terms, version)["plumber"] == 2
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
