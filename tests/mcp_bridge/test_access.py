"""Access scope per surface, through every tool: what a caller may not see behaves exactly like nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER, Caller
from tests.mcp_bridge.conftest import REMOTE, WORKSPACE_A, WORKSPACE_B, Seeded
from tests.mcp_bridge.helpers import Answer, call, connect

pytestmark = pytest.mark.anyio
MISSING = "m0123456789ab"
LOCAL_WORDS = "budget ceiling"


def visible_to(caller: Caller, seeded: Seeded) -> set[str]:
    ids = {seeded.remote}
    if caller is WORKSPACE_A:
        ids.add(seeded.workspace_a)
    if caller is LOCAL_ASSISTANT:
        ids |= {seeded.local_only, seeded.workspace_a}
    return ids


async def every_read(client: Any, seeded: Seeded) -> list[Answer]:
    answers = [
        await call(client, "memory_search", {"query": "Lindqvist garden budget ceiling tomatoes team", "limit": 50}),
        await call(
            client, "memory_search", {"query": "budget ceiling kronor", "include_history": True, "depth": "deep"}
        ),
        await call(client, "memory_status"),
    ]
    for status in ("current", "archived", "superseded"):
        answers.append(await call(client, "memory_list", {"status": status, "limit": 200}))
    return answers


@pytest.mark.parametrize("caller", [REMOTE, WORKSPACE_A, WORKSPACE_B], ids=lambda c: c.principal)
async def test_hidden_record_is_indistinguishable_from_a_missing_one(
    vault: Vault, seeded: Seeded, caller: Caller
) -> None:
    hidden = [seeded.local_only] + ([] if caller is WORKSPACE_A else [seeded.workspace_a])
    async with connect(vault, caller) as client:
        for record_id in hidden:
            for tool, extra in (
                ("memory_get", {}),
                ("memory_correct", {"statement": "Lindqvist garden: something else entirely"}),
                ("memory_archive", {"reason": "tidy"}),
                ("memory_restore", {}),
            ):
                seen = await call(client, tool, {"id": record_id, **extra})
                missing = await call(client, tool, {"id": MISSING, **extra})
                assert seen.data == missing.data and seen.code == "not_found", (tool, seen.data)
            link = {"type": "relates_to", "target_id": record_id}
            linked = await call(client, "memory_add", {"statement": "Lindqvist garden: a linked note", "links": [link]})
            link_missing = {"type": "relates_to", "target_id": MISSING}
            unlinked = await call(
                client, "memory_add", {"statement": "Lindqvist garden: a linked note", "links": [link_missing]}
            )
            assert linked.data == unlinked.data and linked.code == "not_found"


@pytest.mark.parametrize("caller", [LOCAL_ASSISTANT, REMOTE, WORKSPACE_A, WORKSPACE_B], ids=lambda c: c.principal)
async def test_reads_show_exactly_what_the_surface_allows(vault: Vault, seeded: Seeded, caller: Caller) -> None:
    allowed = visible_to(caller, seeded)
    async with connect(vault, caller) as client:
        search, hidden_search, status, current, archived, superseded = await every_read(client, seeded)
    assert {hit["id"] for hit in search.data["results"]} <= allowed
    assert seeded.remote in {hit["id"] for hit in search.data["results"]}
    assert {item["id"] for item in current.data["items"]} == allowed
    assert [item["id"] for item in archived.data["items"]] == [seeded.archived_remote]
    assert superseded.data["items"] == []
    counts = status.data["counts"]
    assert (counts["current"], counts["archived"], counts["total"]) == (len(allowed), 1, len(allowed) + 1)
    assert counts["by_domain"] == {"garden": len(allowed)}
    if caller is not LOCAL_ASSISTANT:
        # The search answers echo the caller's own query; everything else must be free of the hidden record.
        answers = [{k: v for k, v in a.data.items() if k != "query"} for a in (search, hidden_search, status, current)]
        everything = json.dumps([*answers, archived.data])
        assert seeded.local_only not in everything and LOCAL_WORDS not in everything
        assert hidden_search.data["results"] == []


async def test_a_remote_duplicate_of_a_hidden_record_reveals_nothing(vault: Vault, seeded: Seeded) -> None:
    statement = "Lindqvist garden: the private budget ceiling is 4000 kronor"
    async with connect(vault, REMOTE) as client:
        answer = await call(client, "memory_add", {"statement": statement, "domain": "garden", "type": "CONSTRAINT"})
    assert answer.data["outcome"] == "staged"
    assert seeded.local_only not in json.dumps(answer.data)


async def test_an_archived_record_is_reached_only_by_get_list_and_restore(vault: Vault, seeded: Seeded) -> None:
    async with connect(vault, REMOTE) as client:
        got = await call(client, "memory_get", {"id": seeded.archived_remote})
        search = await call(client, "memory_search", {"query": "old shed painted blue", "depth": "deep"})
    assert got.data["memory"]["status"] == "archived"
    assert search.data["results"] == []


async def test_remote_writes_are_remote_allowed_and_cannot_widen_scope(vault: Vault, seeded: Seeded) -> None:
    async with connect(vault, REMOTE) as client:
        own = await call(client, "memory_add", {"statement": "Lindqvist garden: order seeds in March"})
        wider = await call(
            client, "memory_add", {"statement": "Lindqvist garden: sow beans", "access_scope": "workspace_allowed"}
        )
    assert own.data["outcome"] == "staged"
    proposal = vault.proposals(OWNER)[0]
    assert proposal["payload"]["draft"]["access_scope"] == "remote_allowed"
    assert wider.code == "forbidden"
