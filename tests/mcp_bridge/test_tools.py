"""Every required tool through the official MCP client: happy paths and the error codes we can produce."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from memvault.core.retrieval.embeddings import MODEL_ID
from memvault.core.store.context import Context
from memvault.core.store.sqlcipher import vector_rows as vector_sql
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.mcp_bridge.errors import INTERNAL_MESSAGE
from memvault.mcp_bridge.ratelimit import RateLimiter
from memvault.mcp_bridge.server import create_server
from tests.mcp_bridge.conftest import REMOTE, Seeded
from tests.mcp_bridge.helpers import call, connect

pytestmark = pytest.mark.anyio


# -- reads ------------------------------------------------------------------------------------


async def test_search_returns_cited_hits_with_structured_content(vault: Vault, seeded: Seeded) -> None:
    async with connect(vault, LOCAL_ASSISTANT) as client:
        answer = await call(client, "memory_search", {"query": "Lindqvist garden tomatoes", "limit": 5})
    assert not answer.is_error
    assert answer.structured == answer.data
    ids = [hit["id"] for hit in answer.data["results"]]
    assert seeded.remote in ids and seeded.archived_remote not in ids
    hit = answer.data["results"][ids.index(seeded.remote)]
    assert {"score", "why", "tier", "statement", "revision"} <= set(hit)
    assert f"[{seeded.remote}]" in answer.data["packet"]
    assert answer.data["budget"]["records"] == len(ids) <= 5


async def test_search_shadow_answers_counts_only(vault: Vault, seeded: Seeded) -> None:
    async with connect(vault, LOCAL_ASSISTANT) as client:
        answer = await call(client, "memory_search", {"query": "tomatoes south bed", "shadow": True})
    assert set(answer.data) == {"shadow", "retrieved", "latency_ms"}
    assert answer.data["shadow"] is True and answer.data["retrieved"] >= 1
    assert "tomatoes" not in str(answer.data)


async def test_get_list_and_status(vault: Vault, seeded: Seeded) -> None:
    async with connect(vault, LOCAL_ASSISTANT) as client:
        got = await call(client, "memory_get", {"id": seeded.remote})
        first = await call(client, "memory_list", {"domain": "garden", "limit": 1})
        second = await call(
            client, "memory_list", {"domain": "garden", "limit": 5, "cursor": first.data["next_cursor"]}
        )
        archived = await call(client, "memory_list", {"status": "archived"})
        status = await call(client, "memory_status")
    assert got.data["memory"]["id"] == seeded.remote and got.data["history"] == []
    assert got.structured == got.data
    assert len(first.data["items"]) == 1 and first.data["next_cursor"]
    listed = {item["id"] for item in first.data["items"] + second.data["items"]}
    assert listed == {seeded.local_only, seeded.remote, seeded.workspace_a}
    assert second.data["next_cursor"] is None
    assert [item["id"] for item in archived.data["items"]] == [seeded.archived_remote]
    assert status.data["contract"] == 1 and status.data["store"]["encrypted"] is True
    assert status.data["counts"]["current"] == 3 and status.data["counts"]["archived"] == 1
    assert status.data["kill_switch"] == "off"


# -- writes -----------------------------------------------------------------------------------


async def test_add_outcomes_added_duplicate_rejected(auto_vault: Vault, seeded: Seeded) -> None:
    statement = "Lindqvist garden: the compost bin sits behind the shed"
    async with connect(auto_vault, LOCAL_ASSISTANT) as client:
        added = await call(client, "memory_add", {"statement": statement, "domain": "garden", "tags": ["compost"]})
        again = await call(client, "memory_add", {"statement": statement.upper() + "!!", "domain": "garden"})
        secret = "Lindqvist garden: the gate password is hunter2-Correct-Horse-99"
        rejected = await call(client, "memory_add", {"statement": secret, "domain": "garden"})
        got = await call(client, "memory_get", {"id": added.data["id"]})
    assert added.data["outcome"] == "added" and added.structured == added.data
    assert got.data["memory"]["statement"] == statement and got.data["memory"]["access_scope"] == "local_only"
    assert again.data["outcome"] == "duplicate" and again.data["duplicate_of"] == added.data["id"]
    assert rejected.data["outcome"] == "rejected" and "hunter2" not in str(rejected.data)
    assert auto_vault.status(OWNER)["counts"]["current"] == 4


async def test_a_search_right_after_an_add_finds_it_by_meaning(auto_vault: Vault, seeded: Seeded) -> None:
    # The server embeds after the commit on a thread of its own; the search waits for that.
    async with connect(auto_vault, LOCAL_ASSISTANT) as client:
        added = await call(
            client,
            "memory_add",
            {"statement": "The garden hose is stored in the blue shed", "domain": "garden", "confidence": 0.9},
        )
        found = await call(client, "memory_search", {"query": "where do I keep the watering pipe", "limit": 5})
    hits = {hit["id"]: hit for hit in found.data["results"]}
    assert added.data["outcome"] == "added" and added.data["id"] in hits
    assert "semantic" in hits[added.data["id"]]["why"]
    with auto_vault.ctx.reading() as conn:
        assert vector_sql.count_missing(conn.raw, MODEL_ID) == 0


async def test_add_is_staged_in_review_mode(vault: Vault, seeded: Seeded) -> None:
    async with connect(vault, LOCAL_ASSISTANT) as client:
        staged = await call(client, "memory_add", {"statement": "Lindqvist garden: plant garlic in October"})
    assert staged.data["outcome"] == "staged" and staged.data["proposal_id"] and staged.data["id"] is None
    assert vault.proposals(OWNER)[0]["id"] == staged.data["proposal_id"]


async def test_correct_archive_restore_round(auto_vault: Vault, seeded: Seeded) -> None:
    """Automatic mode (contract revision 3): inside the approved scope an assistant's correction,
    archive and restore commit; the corrected version stays as history."""
    async with connect(auto_vault, LOCAL_ASSISTANT) as client:
        corrected = await call(
            client,
            "memory_correct",
            {"id": seeded.remote, "statement": "Lindqvist garden: tomatoes go in the west bed", "reason": "more sun"},
        )
        new_id = corrected.data["id"]
        history = await call(client, "memory_get", {"id": new_id})
        archived = await call(client, "memory_archive", {"id": new_id, "reason": "season over"})
        search = await call(client, "memory_search", {"query": "tomatoes west bed", "include_history": True})
        restored = await call(client, "memory_restore", {"id": new_id})
        after = await call(client, "memory_get", {"id": new_id})
    assert corrected.data["outcome"] == "superseded" and corrected.data["supersedes_id"] == seeded.remote
    assert corrected.structured == corrected.data
    assert [old["id"] for old in history.data["history"]] == [seeded.remote]
    assert history.data["history"][0]["status"] == "superseded"
    assert archived.data == {"outcome": "archived", "id": new_id}
    assert new_id not in [hit["id"] for hit in search.data["results"]]
    assert restored.data == {"outcome": "restored", "id": new_id, "proposal_id": None}
    assert after.data["memory"]["status"] == "current"


async def test_review_mode_stages_an_assistants_correction_archive_and_restore(vault: Vault, seeded: Seeded) -> None:
    async with connect(vault, LOCAL_ASSISTANT) as client:
        corrected = await call(client, "memory_correct", {"id": seeded.remote, "statement": "Tomatoes go west"})
        archived = await call(client, "memory_archive", {"id": seeded.remote})
        restored = await call(client, "memory_restore", {"id": seeded.archived_remote})
    assert [a.data["outcome"] for a in (corrected, archived, restored)] == ["staged"] * 3
    assert restored.structured == restored.data and restored.data["proposal_id"]
    assert sorted(p["kind"] for p in vault.proposals(OWNER)) == ["archive", "correct", "restore"]


async def test_export_writes_private_markdown(vault: Vault, seeded: Seeded) -> None:
    async with connect(vault, LOCAL_ASSISTANT) as client:
        answer = await call(client, "memory_export_markdown", {"domain": "garden"})
    assert answer.data["records"] == 3 and len(answer.data["files"]) == 1
    path = Path(answer.data["files"][0])
    assert path.parent == vault.paths.exports and "tomatoes" in path.read_text()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


# -- error codes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("memory_search", {}),
        ("memory_search", {"query": "x", "limit": 51}),
        ("memory_search", {"query": "x", "depth": "bottomless"}),
        ("memory_search", {"query": "x", "as_of": "last tuesday"}),
        ("memory_get", {"id": 42}),
        ("memory_get", {"id": "m1", "extra": True}),
        ("memory_list", {"status": "gone"}),
        ("memory_list", {"cursor": "not-a-cursor"}),
        ("memory_add", {"statement": "   "}),
        ("memory_add", {"statement": "a fact", "importance": 2}),
        ("memory_add", {"statement": "a fact", "links": [{"type": "supersedes", "target_id": "m1"}]}),
        ("memory_correct", {"id": "m1"}),
        ("memory_archive", {}),
        ("memory_export_markdown", {"domain": "no such/../path"}),
    ],
)
async def test_invalid_arguments(vault: Vault, tool: str, arguments: dict[str, Any]) -> None:
    async with connect(vault, LOCAL_ASSISTANT) as client:
        answer = await call(client, tool, arguments)
    assert answer.code == "invalid_argument", answer.data


async def test_not_found_forbidden_conflict(auto_vault: Vault, seeded: Seeded) -> None:
    async with connect(auto_vault, LOCAL_ASSISTANT) as client:
        missing = await call(client, "memory_get", {"id": "m000000000000"})
        stale = await call(
            client, "memory_correct", {"id": seeded.remote, "statement": "tomatoes moved", "expected_revision": 7}
        )
        not_archived = await call(client, "memory_restore", {"id": seeded.remote})
        twice = await call(client, "memory_archive", {"id": seeded.archived_remote})
    async with connect(auto_vault, REMOTE) as client:
        export = await call(client, "memory_export_markdown")
        local_scope = await call(client, "memory_add", {"statement": "a remote note", "access_scope": "local_only"})
    assert missing.code == "not_found"
    assert stale.code == "conflict" and not_archived.code == "conflict" and twice.code == "conflict"
    assert export.code == "forbidden" and local_scope.code == "forbidden"


async def test_read_only_mode_refuses_assistant_writes(vault: Vault, seeded: Seeded) -> None:
    vault.set_setting(OWNER, "write_mode", "retrieval-only")
    async with connect(vault, LOCAL_ASSISTANT) as client:
        add = await call(client, "memory_add", {"statement": "Lindqvist garden: buy netting"})
        archive = await call(client, "memory_archive", {"id": seeded.remote})
        search = await call(client, "memory_search", {"query": "tomatoes"})
    assert add.code == "read_only_mode" and archive.code == "read_only_mode"
    assert not search.is_error


async def test_rate_limit_answers_rate_limited(vault: Vault, seeded: Seeded) -> None:
    limited = create_server(vault, lambda _ctx: REMOTE, RateLimiter(per_minute=1, burst=2))
    async with Client(limited) as client:
        answers = [await call(client, "memory_status") for _ in range(3)]
    assert [a.code for a in answers] == [None, None, "rate_limited"]


async def test_local_callers_are_not_rate_limited(vault: Vault) -> None:
    server = create_server(vault, lambda _ctx: LOCAL_ASSISTANT, RateLimiter(per_minute=1, burst=1))
    async with Client(server) as client:
        answers = [await call(client, "memory_status") for _ in range(3)]
    assert all(not a.is_error for a in answers)


class ExplodingRetriever:
    def embed_in_background(self) -> None:
        pass

    def expect(self, query: str) -> None:
        pass

    def usage_after_answer(self) -> None:
        pass

    def settle(self) -> None:
        pass

    def search(self, ctx: Context, caller: Any, request: SearchRequest) -> dict[str, Any]:
        raise RuntimeError(f"boom while handling {request.query}")


async def test_unexpected_failure_is_internal_and_leaks_nothing(vault: Vault, caplog: pytest.LogCaptureFixture) -> None:
    broken = Vault(vault.ctx, retriever=ExplodingRetriever())
    with caplog.at_level(logging.INFO, logger="memvault"):
        async with connect(broken, LOCAL_ASSISTANT) as client:
            answer = await call(client, "memory_search", {"query": "the Lindqvist secret diary"})
            still_alive = await call(client, "memory_status")
    assert answer.code == "internal" and answer.data["error"]["message"] == INTERNAL_MESSAGE
    assert not still_alive.is_error
    assert "RuntimeError" in caplog.text and "secret diary" not in caplog.text
