"""A search's usage written after its answer (long-lived servers): nothing reads the store as if it
had not happened, the next search ranks as if written inline, and a failed write is never lost unsaid."""

from __future__ import annotations

import json
import logging
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from evalkit import open_eval_vault

from memvault.core.store import later_writes
from memvault.core.store.later_writes import writer_thread
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import PurgeRequest
from memvault.core.vocabulary.search_request import SearchRequest

FAIL_LOG_INSERT = (
    "CREATE TEMP TRIGGER no_log BEFORE INSERT ON main.retrieval_log BEGIN SELECT RAISE(ABORT, 'refused'); END"
)


def _later(vault: Vault) -> Vault:
    vault.retriever.usage_after_answer()
    return vault


def _add(vault: Vault, statement: str) -> str:
    return str(vault.add(OWNER, Draft.of(statement=statement, domain="food"))["id"])


def _log_rows(vault: Vault) -> list[Any]:
    with vault.ctx.reading() as conn:
        return list(conn.raw.execute("SELECT ids, shadow FROM retrieval_log ORDER BY id").fetchall())


def _thread_done() -> None:
    writer_thread().submit(lambda: None).result(timeout=10)  # one thread: the jobs before this one ran


def test_a_read_right_after_a_search_sees_its_usage(vault: Vault) -> None:
    tea = _add(_later(vault), "I prefer green tea in the morning")
    for n in range(1, 31):
        answer = vault.search(OWNER, SearchRequest.of(query="green tea"))
        assert answer["results"][0]["retrieval_count"] == n - 1  # as this search read it
        assert vault.get(OWNER, tea)["memory"]["retrieval_count"] == n  # its own count, already there
    assert len(_log_rows(vault)) == 30


def test_the_thread_writes_it_without_a_further_call(vault: Vault, home: Path) -> None:
    tea = _add(_later(vault), "I prefer green tea in the morning")
    vault.search(OWNER, SearchRequest.of(query="green tea"))
    _thread_done()
    with Vault.open(home) as other:  # another connection: only what was committed
        assert other.get(OWNER, tea)["memory"]["retrieval_count"] == 1
    assert not vault.ctx.queued


def test_closing_the_store_writes_what_is_still_queued(home: Path) -> None:
    gate = threading.Event()
    vault = _later(Vault.open(home))
    tea = _add(vault, "I prefer green tea in the morning")
    writer_thread().submit(gate.wait, 10)  # the thread is busy: the search's write waits in the queue
    try:
        vault.search(OWNER, SearchRequest.of(query="green tea"))
        assert vault.ctx.queued
        vault.close()
    finally:
        gate.set()
    _thread_done()
    with Vault.open(home) as reopened:
        assert reopened.get(OWNER, tea)["memory"]["retrieval_count"] == 1
        assert len(_log_rows(reopened)) == 1


def test_a_record_purged_before_the_write_leaves_no_trace(home: Path) -> None:
    gate = threading.Event()
    vault = _later(Vault.open(home))
    tea = _add(vault, "I prefer green tea in the morning")
    coffee = _add(vault, "I drink green coffee beans roasted light")
    writer_thread().submit(gate.wait, 10)
    try:
        answer = vault.search(OWNER, SearchRequest.of(query="green"))
        assert {hit["id"] for hit in answer["results"]} == {tea, coffee}
        with Vault.open(home) as other:  # another process purges one of the hits meanwhile
            request = other.request_purge(OWNER, PurgeRequest.of(id=tea, reason="privacy"))
            other.confirm_purge(OWNER, request["request_id"])
    finally:
        gate.set()
    _thread_done()
    assert [json.loads(r["ids"]) for r in _log_rows(vault)] == [[coffee]]
    assert vault.get(OWNER, coffee)["memory"]["retrieval_count"] == 1
    vault.close()


def test_shadow_searches_log_and_count_nothing_later_either(vault: Vault) -> None:
    tea = _add(_later(vault), "I prefer green tea in the morning")
    vault.search(OWNER, SearchRequest.of(query="green tea", shadow=True))
    vault.search(OWNER, SearchRequest.of(query="green tea").browsing())
    assert [(json.loads(r["ids"]), r["shadow"]) for r in _log_rows(vault)] == [([tea], 1)]
    assert vault.get(OWNER, tea)["memory"]["retrieval_count"] == 0


def test_a_failed_write_is_tried_again_then_logged_as_lost_by_count(
    vault: Vault, caplog: pytest.LogCaptureFixture
) -> None:
    tea = _add(_later(vault), "I prefer green tea in the morning")
    vault.ctx.store.raw.execute(FAIL_LOG_INSERT)
    with caplog.at_level(logging.INFO, logger="memvault"):
        answer = vault.search(OWNER, SearchRequest.of(query="green tea"))  # answered all the same
        _thread_done()
        assert "usage of 1 searches (1 records) not written (IntegrityError): tried again" in caplog.text
        assert vault.ctx.queued  # kept for the next use of the store
        vault.ctx.store.raw.execute("DROP TRIGGER temp.no_log")
        assert vault.get(OWNER, tea)["memory"]["retrieval_count"] == 1  # the next use wrote it
        vault.ctx.store.raw.execute(FAIL_LOG_INSERT)
        vault.search(OWNER, SearchRequest.of(query="green tea"))
        _thread_done()
        assert vault.get(OWNER, tea)["memory"]["retrieval_count"] == 1  # the second try failed too
        assert "usage of 1 searches (1 records) lost" in caplog.text
    assert answer["results"][0]["id"] == tea
    assert not vault.ctx.queued
    assert "tea" not in caplog.text and "refused" not in caplog.text


def test_searches_rank_as_with_usage_written_inline(eval_home: Path, tmp_path: Path, eval_data: dict[str, Any]) -> None:
    """Usage moves activation and so later rankings: a sequence of searches answers the same either way."""
    answers: list[list[Any]] = []
    for mode in ("inline", "later"):
        shutil.copytree(eval_home, tmp_path / mode)
        vault, clock, _ = open_eval_vault(tmp_path / mode, False, eval_data)
        if mode == "later":
            _later(vault)
        found = []
        try:
            for query in [q["query"] for q in eval_data["queries"][:40]] * 2:
                answer = dict(vault.search(OWNER, SearchRequest.of(query=query)))
                answer.pop("latency_ms", None)
                answer["budget"].pop("latency_ms", None)
                found.append(answer)
                clock.advance(hours=7)
        finally:
            vault.close()
        answers.append(found)
    assert answers[0] == answers[1]
    assert any(hit["retrieval_count"] for answer in answers[1] for hit in answer["results"])


def test_under_a_hold_the_thread_writes_once_it_is_released(vault: Vault, home: Path) -> None:
    """A server that writes its answers itself holds the thread back until the answer is out."""
    tea = _add(_later(vault), "I prefer green tea in the morning")
    hold = later_writes.Hold()
    with later_writes.holding(hold):
        vault.search(OWNER, SearchRequest.of(query="green tea"))
    _thread_done()
    assert vault.ctx.queued  # not written yet: the answer is not on its way
    with Vault.open(home) as other:
        assert other.get(OWNER, tea)["memory"]["retrieval_count"] == 0
    hold.release()
    _thread_done()
    assert not vault.ctx.queued
    with Vault.open(home) as other:
        assert other.get(OWNER, tea)["memory"]["retrieval_count"] == 1
