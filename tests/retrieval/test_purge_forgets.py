"""A purge reaches the text a process keeps to go faster: the purging process forgets it at once,
another process at its next search."""

from __future__ import annotations

from pathlib import Path

from memvault.core.retrieval import query as q
from memvault.core.retrieval.embeddings import token_counter
from memvault.core.retrieval.packet import line_for
from memvault.core.retrieval.pipeline import HybridRetriever
from memvault.core.store.sqlcipher import memories
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import PurgeRequest
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.core.writer import similarity

SECRET = "Fictional: the lighthouse door code is zorbmarker"


def _kept(cached: object, text: str) -> bool:
    """Whether an lru_cache'd function holds `text` (asking it again is then a hit)."""
    before = cached.cache_info().hits  # type: ignore[attr-defined]
    cached(text)  # type: ignore[operator]
    return bool(cached.cache_info().hits > before)  # type: ignore[attr-defined]


def _search_and_keep(vault: Vault) -> tuple[str, str]:
    """Store the secret, find it, and check the search kept its text (the id and its packet line)."""
    secret = vault.add(OWNER, Draft.of(statement=SECRET, domain="travel"))["id"]
    vault.add(OWNER, Draft.of(statement="Fictional: the lighthouse keeper retired in May", domain="travel"))
    retriever = vault.retriever
    assert isinstance(retriever, HybridRetriever)
    assert secret in [h["id"] for h in vault.search(OWNER, SearchRequest.of(query="lighthouse door code"))["results"]]
    with vault.ctx.reading() as conn:
        record = memories.fetch(conn.raw, OWNER, secret)
    assert record is not None
    line = line_for(record)
    # the check can fail: the search kept its packet line's token count and the line's word pieces
    assert _kept(retriever._token_count(), line) and "zorbmarker" in token_counter()._pieces
    assert "zorbmarker" in retriever._postings  # the word index held in memory
    q.index_words(SECRET)  # the words of a statement, kept by searches of non-ASCII text and by `hold_back`
    return secret, line


def test_the_purging_process_forgets_the_purged_text_at_once(vault: Vault) -> None:
    secret, line = _search_and_keep(vault)
    similarity.parse(SECRET)  # what a duplicate check keeps of a statement it compared
    assert _kept(similarity.parse, SECRET)

    request = vault.request_purge(OWNER, PurgeRequest.of(id=secret, reason="privacy: a made-up code"))
    vault.confirm_purge(OWNER, request["request_id"])

    retriever = vault.retriever
    assert isinstance(retriever, HybridRetriever)
    assert "zorbmarker" not in token_counter()._pieces  # asked before `_kept` counts the line again
    assert not _kept(q.index_words, SECRET)
    assert not _kept(retriever._token_count(), line)
    assert not _kept(similarity.parse, SECRET)
    assert "zorbmarker" not in retriever._postings


def test_another_process_forgets_the_purged_text_at_its_next_search(vault: Vault, home: Path) -> None:
    secret, line = _search_and_keep(vault)
    retriever = vault.retriever
    assert isinstance(retriever, HybridRetriever)

    with Vault.open(home) as other:  # another process's vault: its purge does not reach this one's caches
        request = other.request_purge(OWNER, PurgeRequest.of(id=secret, reason="privacy: a made-up code"))
        other.confirm_purge(OWNER, request["request_id"])
    q.index_words(SECRET)  # this process still holds the text until it learns of the purge
    assert _kept(retriever._token_count(), line)
    vault.search(OWNER, SearchRequest.of(query="lighthouse keeper"))

    assert "zorbmarker" not in retriever._postings
    assert "zorbmarker" not in token_counter()._pieces
    assert not _kept(q.index_words, SECRET)
    assert not _kept(retriever._token_count(), line)
