"""The governor: what is skipped, and a cache that any write (in any process) invalidates."""

from __future__ import annotations

from pathlib import Path

import pytest

from memvault.core.retrieval.governor import skip_reason
from memvault.core.retrieval.pipeline import HybridRetriever
from memvault.core.store.sqlcipher import vector_rows as vector_sql
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Caller, Surface
from memvault.core.vocabulary.requests import ArchiveRequest
from memvault.core.vocabulary.search_request import SearchRequest


@pytest.mark.parametrize(
    "text",
    [
        "2 + 2",
        "what is 17 * 23?",
        "calculate 3.5 x 4",
        "What is 17 times 23?",
        "what is 12 divided by 4",
        "(3 + 4) * 2",
        "5 squared",
        "What is the capital of France?",
        "who wrote Pride and Prejudice",
        "how many days are in a leap year",
        "translate thank you into Spanish",
        "hello",
        "thanks!",
        "what's 15% of 80?",
        "write a haiku about autumn leaves",
        "Write me a short poem about the sea",
    ],
)
def test_self_contained_requests_are_skipped(text: str) -> None:
    assert skip_reason(text, True)


@pytest.mark.parametrize(
    "text",
    [
        "what is my favourite colour",
        "which city is the capital of the country I moved to",
        "how many days until my passport expires",
        "what did I decide about the kitchen",
        "Kletterhalle",
        "2 + 2 apples in my recipe",
        "what is 17 times my rent",
        "times we met in 2023",
        "write a poem for my sister's birthday",
        "write a story about our trip to Lisbon",
        "how much of the budget is left",
    ],
)
def test_anything_personal_is_searched(text: str) -> None:
    assert skip_reason(text, True) is None


def test_a_request_without_words_is_skipped() -> None:
    assert skip_reason("?!", False)


def test_every_write_moves_the_store_version(vault: Vault) -> None:
    def version() -> int:
        with vault.ctx.reading() as conn:
            return vector_sql.store_version(conn.raw)

    start = version()
    added = vault.add(OWNER, Draft.of(statement="I prefer green tea in the morning"))["id"]
    after_add = version()
    assert after_add > start
    vault.search(OWNER, SearchRequest.of(query="green tea"))  # reading (usage counters, the log) is not a write
    assert version() == after_add
    vault.archive(OWNER, ArchiveRequest.of(id=added))
    assert version() > after_add


def test_the_cache_answers_repeats_and_any_write_invalidates_it(home: Path) -> None:
    first, second = Vault.open(home), Vault.open(home)  # two processes' worth of connections
    try:
        tea = first.add(OWNER, Draft.of(statement="I prefer green tea in the morning"))["id"]
        retriever = first.retriever
        assert isinstance(retriever, HybridRetriever)
        assert [h["id"] for h in first.search(OWNER, SearchRequest.of(query="tea in the morning"))["results"]] == [tea]
        misses = retriever.cache.misses
        first.search(OWNER, SearchRequest.of(query="tea in the morning"))
        assert retriever.cache.misses == misses and retriever.cache.hits >= 1
        other = first.search(Caller("bot", Surface.REMOTE), SearchRequest.of(query="tea in the morning"))
        assert other["results"] == []  # the cache is per caller: a remote bot never gets the local answer
        coffee = second.add(OWNER, Draft.of(statement="I also drink a strong coffee in the morning"))["id"]
        answer = first.search(OWNER, SearchRequest.of(query="tea in the morning"))
        assert coffee in [h["id"] for h in answer["results"]]  # the other connection's write was seen
        second.archive(OWNER, ArchiveRequest.of(id=tea))
        assert tea not in [
            h["id"] for h in first.search(OWNER, SearchRequest.of(query="tea in the morning"))["results"]
        ]
    finally:
        first.close()
        second.close()
