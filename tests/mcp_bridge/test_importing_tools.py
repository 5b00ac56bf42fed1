"""memory_import and memory_search_conversations through the official MCP client (real store, real framing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from tests.mcp_bridge.conftest import REMOTE
from tests.mcp_bridge.helpers import call, connect

pytestmark = pytest.mark.anyio

FIXTURES = Path(__file__).parents[1] / "importers" / "fixtures"
AUTO = "automatic-write-within-approved-scope"


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")


async def test_both_tools_are_listed_local_only_with_honest_annotations(vault: Vault) -> None:
    async with connect(vault, LOCAL_ASSISTANT) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    imp, conv = listed["memory_import"], listed["memory_search_conversations"]
    assert list(imp.input_schema["properties"])[:4] == ["path", "format", "dry_run", "batch_id"]
    assert list(conv.input_schema["properties"])[:2] == ["query", "limit"]
    assert imp.annotations and imp.annotations.read_only_hint is False and imp.annotations.open_world_hint is False
    assert conv.annotations and conv.annotations.read_only_hint is True
    async with connect(vault, REMOTE) as client:
        for name, args in (("memory_import", {"path": "x"}), ("memory_search_conversations", {"query": "x"})):
            assert (await call(client, name, args)).code == "forbidden"


async def test_a_dry_run_over_the_wire_writes_nothing(vault: Vault) -> None:
    path = str(FIXTURES / "claude_conversations.json")
    async with connect(vault, LOCAL_ASSISTANT) as client:
        answer = await call(client, "memory_import", {"path": path})
        assert not answer.is_error and answer.data["dry_run"] is True
        assert "I'm allergic to peanuts." in {a["statement"] for a in answer.data["additions"]}
        refused = await call(client, "memory_import", {"path": path, "dry_run": False})
        assert refused.code == "forbidden"  # review mode: the person commits an import
    assert vault.status(OWNER)["counts"]["total"] == 0


async def test_commit_search_and_rollback_in_automatic_mode(vault: Vault) -> None:
    vault.set_setting(OWNER, "write_mode", AUTO)
    path = str(FIXTURES / "generic.md")
    async with connect(vault, LOCAL_ASSISTANT) as client:
        done = await call(client, "memory_import", {"path": path, "format": "markdown", "dry_run": False})
        assert not done.is_error and done.data["counts"]["added"] == 4
        batch = done.data["batch_id"]
        hits = await call(client, "memory_search_conversations", {"query": "compost tomato", "limit": 5})
        assert [h["title"] for h in hits.data["items"]] == ["Moving the Lindqvist garden beds"]
        assert set(hits.data["items"][0]) >= {"conversation_id", "title", "time", "snippet"}
        dated = await call(client, "memory_search_conversations", {"query": "compost", "end": "2026-01-01"})
        assert dated.data["items"] == []
        undone = await call(client, "memory_import", {"batch_id": batch, "rollback": True})
        assert undone.data["removed"] == 4
        again = await call(client, "memory_search_conversations", {"query": "compost"})
        assert again.data["items"] == []
        bad = await call(client, "memory_import", {"path": str(FIXTURES / "nope.json")})
        assert bad.code == "invalid_argument"
    assert vault.status(OWNER)["counts"]["total"] == 0
