"""The assistant-driven backfill (resources/skills/memvault-backfill/SKILL.md), end to end through the real
MCP server and the official client: an import of a fictional export, conversations found by topic, a
memory proposed from a snippet with its conversation_ref, the proposal in the person's inbox, the
record it becomes; and the skill names only tools and arguments the server has, and ships."""

from __future__ import annotations

import ast
import fnmatch
import json
import re
from pathlib import Path
from typing import Any

import pytest

from memvault.core.importers.request import ImportRequest
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from tests.mcp_bridge.helpers import call, connect

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).parents[2]
SKILL = ROOT / "resources" / "skills" / "memvault-backfill" / "SKILL.md"
MOVING = "ugh, moving day. the new flat in Rotterdam is on the 4th floor and has no lift, can you make a packing plan?"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")


def _claude_export(folder: Path) -> Path:
    """An unzipped Claude export (conversations.json, users.json) of two fictional conversations."""
    folder.mkdir()
    chats = [
        ("conv-move", "Moving day", [("human", MOVING), ("assistant", "Start with the heavy boxes.")]),
        ("conv-dentist", "Note to my boss", [("human", "Remind me: my next dentist appointment is on April 3 at "
                                                       "Brookside Dental. Can you draft a note to my boss?")]),
    ]  # fmt: skip
    items = [
        {"uuid": key, "name": name, "created_at": f"2025-03-0{n + 1}T10:00:00Z", "chat_messages": [
            {"uuid": f"{key}-{i}", "sender": sender, "text": text, "created_at": f"2025-03-0{n + 1}T10:00:00Z"}
            for i, (sender, text) in enumerate(turns)]}
        for n, (key, name, turns) in enumerate(chats)
    ]  # fmt: skip
    (folder / "conversations.json").write_text(json.dumps(items), encoding="utf-8")
    (folder / "users.json").write_text(json.dumps([{"uuid": "u1", "full_name": "Sam Fictional"}]), encoding="utf-8")
    return folder


async def test_an_assistant_backfills_from_snippets_into_the_inbox(vault: Vault, tmp_path: Path) -> None:
    export = _claude_export(tmp_path / "claude-export")
    async with connect(vault, LOCAL_ASSISTANT) as client:
        status = await call(client, "memory_status", {})
        assert status.data["write_mode"] == "review-before-write"
        dry = await call(client, "memory_import", {"path": str(export)})
        assert dry.data["dry_run"] is True and dry.data["counts"]["conversations"] == 2
    vault.imports.run(OWNER, ImportRequest(path=str(export), commit=True))  # the person commits it

    async with connect(vault, LOCAL_ASSISTANT) as client:
        found = await call(client, "memory_search_conversations", {"query": "flat lift", "limit": 10})
        (hit,) = found.data["items"]
        assert hit["title"] == "Moving day" and "4th floor" in hit["snippet"]
        ref = f"backfill:{hit['conversation_id']}"
        candidate = {
            "statement": "Our flat in Rotterdam is on the 4th floor and has no lift.",
            "type": "FACT",
            "event_time": hit["time"],
        }
        proposed = await call(client, "memory_propose", {"candidates": [candidate], "conversation_ref": ref})
        (result,) = proposed.data["results"]
        assert (result["classification"], result["outcome"]) == ("ADD", "staged") and result["proposal_id"]
        again = await call(client, "memory_propose", {"candidates": [candidate], "conversation_ref": ref})
        assert again.data["results"][0]["proposal_id"] == result["proposal_id"]  # resuming duplicates nothing

    (waiting,) = [p for p in vault.proposals(OWNER) if p["id"] == result["proposal_id"]]
    assert waiting["kind"] == "add" and waiting["payload"]["draft"]["source_reference"] == ref
    approved = vault.approve(OWNER, str(result["proposal_id"]))
    record = vault.get(OWNER, str(approved["id"]))["memory"]
    assert record["source_reference"] == ref and record["statement"] == candidate["statement"]

    async with connect(vault, LOCAL_ASSISTANT) as client:
        after = await call(client, "memory_propose", {"candidates": [candidate], "conversation_ref": ref})
        assert (after.data["results"][0]["classification"], after.data["results"][0]["outcome"]) == (
            "NO_CHANGE",
            "skipped",
        )
        hits = await call(client, "memory_search", {"query": "flat Rotterdam lift"})
        assert record["id"] in {h["id"] for h in hits.data["results"]}


_CALL = re.compile(r"`(memory_[a-z_]+)\(([^)`]*)\)`")
_NAMED = re.compile(r"`(memory_[a-z_]+)`")


async def test_the_skill_names_only_tools_and_arguments_the_server_has(vault: Vault) -> None:
    text = SKILL.read_text(encoding="utf-8")
    assert text.startswith("---\nname: memvault-backfill\ndescription: ")
    async with connect(vault, LOCAL_ASSISTANT) as client:
        tools: dict[str, Any] = {t.name: t for t in (await client.list_tools()).tools}
    named = set(_NAMED.findall(text)) | {name for name, _ in _CALL.findall(text)}
    assert named >= {"memory_search_conversations", "memory_propose", "memory_status", "memory_import"}
    assert named <= set(tools), named - set(tools)
    for name, args in _CALL.findall(text):
        given = {a.split("=")[0].strip() for a in args.split(",") if a.strip() and a.strip() != "..."}
        assert given <= set(tools[name].input_schema["properties"]), (name, given)
    for field in ("conversation_ref", "conversation_id", "snippet", "time"):
        assert f"`{field}" in text
    schema = tools["memory_search_conversations"].output_schema["properties"]["items"]["items"]["properties"]
    assert {"conversation_id", "title", "time", "snippet"} <= set(schema)


def test_the_skill_ships_with_the_package() -> None:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    setup_call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "setup")
    package_data = ast.literal_eval(next(k.value for k in setup_call.keywords if k.arg == "package_data"))
    shipped = SKILL.relative_to(ROOT / "resources").as_posix()
    assert any(fnmatch.fnmatch(shipped, pattern) for pattern in package_data["memvault.resources"])
