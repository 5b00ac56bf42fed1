"""memory_propose through the official MCP client (in process, real JSON-RPC framing, a real store).

Each answer is also checked by `call`: one JSON object, structuredContent equal to it.
"""

from __future__ import annotations

from typing import Any

import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from tests.core.corekit import dump
from tests.mcp_bridge.conftest import REMOTE, owner_add
from tests.mcp_bridge.helpers import call, connect

pytestmark = pytest.mark.anyio

SECRET = "hunter2-Correct-Horse-99"


def statements(*texts: str) -> list[dict[str, Any]]:
    return [{"statement": text} for text in texts]


async def test_the_tool_is_listed_with_honest_annotations(vault: Vault) -> None:
    async with connect(vault, LOCAL_ASSISTANT) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    tool = listed["memory_propose"]
    hints = tool.annotations
    assert hints is not None
    assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint, hints.open_world_hint) == (
        False,
        False,
        False,
        False,
    )
    assert list(tool.input_schema["properties"]) == ["candidates", "conversation_ref"]
    assert tool.input_schema["required"] == ["candidates"]
    assert tool.output_schema is not None and "approval" in (tool.description or "")


async def test_each_classification_over_the_wire(vault: Vault) -> None:
    known = owner_add(vault, "The backup drive is kept in the hall cupboard.", domain="home")
    budget = owner_add(vault, "The garden budget is 4000 kronor.", domain="garden")
    tennis = owner_add(vault, "I play tennis on Sunday mornings.", domain="sport")
    candidates = statements(
        "The backup drive is kept in the hall cupboard",  # exact (after normalisation)
        "The backup drive is stored in the hall cupboard.",  # near duplicate
        "The garden budget is 5500 kronor.",  # a new value
        "I no longer play tennis on Sundays.",  # an ending
        "My brother Arvid lives in Bergen.",  # unrelated
    )
    async with connect(vault, LOCAL_ASSISTANT) as client:
        answer = await call(client, "memory_propose", {"candidates": candidates, "conversation_ref": "chat:99"})
    assert not answer.is_error
    got = [(r["classification"], r["target_id"], r["outcome"]) for r in answer.data["results"]]
    assert got == [
        ("NO_CHANGE", known, "skipped"),
        ("NO_CHANGE", known, "skipped"),
        ("SUPERSEDE", budget, "staged"),
        ("ARCHIVE", tennis, "staged"),
        ("ADD", None, "staged"),
    ]
    kinds = {p["id"]: p["kind"] for p in vault.proposals(OWNER)}
    assert [kinds[r["proposal_id"]] for r in answer.data["results"][2:]] == ["correct", "archive", "add"]
    assert vault.get(OWNER, budget)["memory"]["status"] == "current"  # an assistant's pass never changes it


async def test_secrets_are_rejected_without_echo_and_the_rest_goes_on(vault: Vault) -> None:
    candidates = statements(f"The shed padlock password is {SECRET}", "The shed is painted green.")
    async with connect(vault, LOCAL_ASSISTANT) as client:
        result = await client.call_tool("memory_propose", {"candidates": candidates})
    text = result.content[0].text  # type: ignore[union-attr]
    assert SECRET not in text and SECRET not in repr(result.structured_content)
    refused, kept = result.structured_content["results"]  # type: ignore[index]
    assert (refused["outcome"], refused["classification"]) == ("rejected", None)
    assert kept["outcome"] == "staged"
    assert SECRET not in repr(dump(vault))


async def test_a_remote_caller_never_gets_a_local_only_target(vault: Vault) -> None:
    hidden = owner_add(vault, "The garden budget is 4000 kronor.", domain="garden")
    candidates = statements("The garden budget is 4000 kronor.", "The garden budget is 5500 kronor.")
    async with connect(vault, REMOTE) as client:
        answer = await call(client, "memory_propose", {"candidates": candidates})
    assert hidden not in str(answer.data)
    for result in answer.data["results"]:
        assert (result["classification"], result["target_id"]) == ("ADD", None)
        assert result["evidence"]["compared"] == 0


async def test_write_modes_over_the_wire(auto_vault: Vault) -> None:
    owner_add(auto_vault, "The kitchen has a gas stove.", domain="home")
    candidates = [{"statement": "The kitchen tap drips when it rains.", "domain": "home"}]
    async with connect(auto_vault, LOCAL_ASSISTANT) as client:
        added = await call(client, "memory_propose", {"candidates": candidates, "conversation_ref": "chat:7#3"})
        auto_vault.set_setting(OWNER, "write_mode", "retrieval-only")
        auto_vault.retriever.settle()  # the added record's vector is written behind the answer
        before = dump(auto_vault)
        refused = await call(client, "memory_propose", {"candidates": statements("The oven is electric.")})
    (result,) = added.data["results"]
    assert (result["classification"], result["outcome"]) == ("ADD", "added") and result["id"]
    assert auto_vault.get(OWNER, result["id"])["memory"]["source_reference"] == "chat:7#3"
    assert refused.code == "read_only_mode" and dump(auto_vault) == before


async def test_the_kill_switch_answers_kill_switch(vault: Vault) -> None:
    vault.set_kill_switch(OWNER, "on")
    async with connect(vault, REMOTE) as client:
        answer = await call(client, "memory_propose", {"candidates": statements("The shed is painted green.")})
    assert answer.code == "kill_switch"


GOOD = {"statement": "The garden hose is 25 metres long."}


@pytest.mark.parametrize(
    "arguments",
    [
        {},
        {"candidates": []},
        {"candidates": GOOD},
        {"candidates": [GOOD] * 51},
        {"candidates": [GOOD, "The shed is green."]},
        {"candidates": [GOOD, {"statement": "The shed is green.", "colour": "green"}]},
        {"candidates": [GOOD, {"statement": "The shed is green.", "type": "GOSSIP"}]},
        {"candidates": [GOOD, {"statement": "The shed is green.", "importance": 7}]},
        {"candidates": [GOOD, {"statement": "The shed is green.", "valid_from": "soon"}]},
        {"candidates": [GOOD], "conversation_ref": "first line\nsecond line"},
        {"candidates": [GOOD], "conversation_ref": f"chat?token={SECRET}"},
        {"candidates": [GOOD], "dry_run": True},
    ],
)
async def test_bad_input_is_invalid_argument_and_changes_nothing(vault: Vault, arguments: dict[str, Any]) -> None:
    owner_add(vault, "The garden shed is red.", domain="garden")
    before = dump(vault)
    async with connect(vault, LOCAL_ASSISTANT) as client:
        answer = await call(client, "memory_propose", arguments)
    assert answer.code == "invalid_argument", answer.data
    assert SECRET not in answer.data["error"]["message"]
    assert dump(vault) == before
