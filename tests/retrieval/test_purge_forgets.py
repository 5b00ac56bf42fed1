"""A purge reaches the text a search process keeps to go faster: the next search forgets it."""

from __future__ import annotations

from memvault.core.drafts import Draft
from memvault.core.model import OWNER
from memvault.core.requests import PurgeRequest
from memvault.core.retrieval import query as q
from memvault.core.retrieval.packet import line_for
from memvault.core.retrieval.pipeline import HybridRetriever
from memvault.core.search_request import SearchRequest
from memvault.core.store import memories
from memvault.core.vault import Vault

SECRET = "Fictional: the lighthouse door code is zorbmarker"


def _kept(cached: object, text: str) -> bool:
    """Whether an lru_cache'd function holds `text` (asking it again is then a hit)."""
    before = cached.cache_info().hits  # type: ignore[attr-defined]
    cached(text)  # type: ignore[operator]
    return bool(cached.cache_info().hits > before)  # type: ignore[attr-defined]


def test_the_search_after_a_purge_forgets_the_purged_text(vault: Vault) -> None:
    secret = vault.add(OWNER, Draft.of(statement=SECRET, domain="travel"))["id"]
    vault.add(OWNER, Draft.of(statement="Fictional: the lighthouse keeper retired in May", domain="travel"))
    retriever = vault.retriever
    assert isinstance(retriever, HybridRetriever)
    assert secret in [h["id"] for h in vault.search(OWNER, SearchRequest.of(query="lighthouse door code"))["results"]]
    with vault.ctx.reading() as conn:
        record = memories.fetch(conn, OWNER, secret)
    assert record is not None
    line = line_for(record)
    # the check can fail: the search kept the statement's words and its packet line's token count
    assert _kept(q.index_words, SECRET) and _kept(retriever._token_count(), line)

    request = vault.request_purge(OWNER, PurgeRequest.of(id=secret, reason="privacy: a made-up code"))
    vault.confirm_purge(OWNER, request["request_id"])
    vault.search(OWNER, SearchRequest.of(query="lighthouse keeper"))

    assert not _kept(q.index_words, SECRET)
    assert not _kept(retriever._token_count(), line)
