"""memory_propose through the MCP client: classification, the write mode, all-or-nothing validation, scope."""

from __future__ import annotations

import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from tests.mcp_bridge.conftest import REMOTE, Seeded
from tests.mcp_bridge.helpers import call, connect

pytestmark = pytest.mark.anyio


async def test_candidates_are_classified_and_written_by_the_write_mode(auto_vault: Vault, seeded: Seeded) -> None:
    candidates = [
        {"statement": "Lindqvist garden: the rain barrel holds 200 litres", "domain": "garden"},
        {"statement": "Lindqvist garden: tomatoes go in the south bed", "domain": "garden"},
        {"statement": "Lindqvist garden: the gate password is hunter2-Correct-Horse-99", "domain": "garden"},
    ]
    async with connect(auto_vault, LOCAL_ASSISTANT) as client:
        answer = await call(client, "memory_propose", {"candidates": candidates, "conversation_ref": "chat 2026-03-01"})
    added, same, secret = answer.data["results"]
    assert (added["classification"], added["outcome"]) == ("ADD", "added") and added["id"]
    assert (same["classification"], same["outcome"], same["target_id"]) == ("NO_CHANGE", "skipped", seeded.remote)
    assert secret["outcome"] == "rejected" and "hunter2" not in str(answer.data)
    assert auto_vault.get(OWNER, added["id"])["memory"]["source_reference"] == "chat 2026-03-01"


async def test_review_mode_stages_and_a_bad_candidate_refuses_the_whole_call(vault: Vault, seeded: Seeded) -> None:
    good = {"statement": "Lindqvist garden: plant garlic in October", "domain": "garden"}
    async with connect(vault, LOCAL_ASSISTANT) as client:
        staged = await call(client, "memory_propose", {"candidates": [good]})
        refused = await call(client, "memory_propose", {"candidates": [good, {"statement": "x", "colour": "red"}]})
        empty = await call(client, "memory_propose", {"candidates": []})
    assert staged.data["results"][0]["outcome"] == "staged" and staged.data["results"][0]["proposal_id"]
    assert refused.code == "invalid_argument" and empty.code == "invalid_argument"
    assert len(vault.proposals(OWNER)) == 1


async def test_a_remote_caller_is_compared_only_with_what_it_may_see(vault: Vault, seeded: Seeded) -> None:
    hidden_twin = {"statement": "Lindqvist garden: the private budget ceiling is 4000 kronor", "domain": "garden"}
    async with connect(vault, REMOTE) as client:
        answer = await call(client, "memory_propose", {"candidates": [hidden_twin]})
        local_scope = await call(
            client, "memory_propose", {"candidates": [{**hidden_twin, "access_scope": "local_only"}]}
        )
    result = answer.data["results"][0]
    assert result["target_id"] is None and seeded.local_only not in str(answer.data)
    assert result["classification"] == "ADD" and result["outcome"] == "staged"
    assert local_scope.code == "forbidden"
