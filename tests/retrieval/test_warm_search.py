"""A server's warm-up (`Serving.warm`): what a search needs is set up before the first search
comes, and nothing is written; a caller the kill switch stops gets no warm-up."""

from __future__ import annotations

import time

import pytest

from memvault.core.retrieval import embeddings
from memvault.core.retrieval.embeddings import shared_embedder
from memvault.core.store.sqlcipher import vector_rows as vector_sql
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import KillSwitchEngaged
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.mcp_bridge.server import build_server

STATEMENTS = ("The garden hose hangs in the shed.", "Greta renews the home insurance in May.")


def _usage(vault: Vault) -> tuple[int, int]:
    with vault.ctx.reading() as conn:
        logged = conn.raw.execute("SELECT count(*) FROM retrieval_log").fetchone()[0]
        counted = conn.raw.execute("SELECT coalesce(sum(retrieval_count), 0) FROM memory_usage").fetchone()[0]
    return int(logged), int(counted)


def _stored_vectors(vault: Vault) -> int:
    with vault.ctx.reading() as conn:
        return len(vector_sql.since(conn.raw, shared_embedder().model_id, 0))


def test_warming_sets_up_the_index_and_writes_nothing(vault: Vault) -> None:
    for statement in STATEMENTS:
        vault.add(OWNER, Draft.of(statement=statement, domain="home"))
    vault.retriever.after_write(vault.ctx)
    before = _usage(vault)
    assert vault.retriever._index is None  # type: ignore[attr-defined] - no search has loaded it yet
    vault.serving.warm(LOCAL_ASSISTANT)
    assert embeddings.loaded()
    assert len(vault.retriever._index_for(shared_embedder())) == _stored_vectors(vault) == len(STATEMENTS)  # type: ignore[attr-defined]
    assert _usage(vault) == before  # no log row, no usage counted: the warm-up searched for nobody


def test_a_caller_the_kill_switch_stops_gets_no_warm_up(vault: Vault) -> None:
    vault.set_setting(OWNER, "kill_switch", "all")
    with pytest.raises(KillSwitchEngaged):
        vault.serving.warm(LOCAL_ASSISTANT)


def test_a_local_session_warms_the_search_as_it_starts(vault: Vault) -> None:
    for statement in STATEMENTS:
        vault.add(OWNER, Draft.of(statement=statement, domain="home"))
    vault.retriever.after_write(vault.ctx)
    build_server(vault, LOCAL_ASSISTANT)  # no call made: the warm-up runs on a thread of its own
    index = vault.retriever._index_for(shared_embedder())  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    while len(index) < len(STATEMENTS) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(index) == len(STATEMENTS)
