"""The advanced tools (views, feedback, backup, purge requests) through the MCP client, per surface."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from tests.mcp_bridge.conftest import REMOTE, owner_add
from tests.mcp_bridge.helpers import call, connect

pytestmark = pytest.mark.anyio
PROJECT = "Lindqvist greenhouse"
TAG = f"project:{PROJECT}"


@dataclass(frozen=True)
class Project:
    state: str
    decision: str
    next_action: str
    hidden_question: str


@pytest.fixture
def project(vault: Vault) -> Project:
    state = owner_add(
        vault,
        "Lindqvist greenhouse: the frame is up, glazing next",
        type="PROJECT_STATE",
        domain="garden",
        tags=[TAG],
        access_scope="remote_allowed",
    )
    decision = owner_add(
        vault,
        "Lindqvist greenhouse: use polycarbonate panels instead of glass",
        type="DECISION",
        domain="garden",
        tags=[TAG],
        access_scope="remote_allowed",
        links=[{"type": "part_of_project", "target_id": state}],
    )
    next_action = owner_add(
        vault,
        "Lindqvist greenhouse: order the polycarbonate panels",
        type="NEXT_ACTION",
        domain="garden",
        tags=[TAG],
        access_scope="remote_allowed",
        due_at="2026-04-01",
        links=[{"type": "depends_on", "target_id": decision}],
    )
    hidden = owner_add(
        vault,
        "Lindqvist greenhouse: can the private loan cover the heater?",
        type="OPEN_QUESTION",
        domain="garden",
        tags=[TAG],
        links=[{"type": "relates_to", "target_id": decision}],
    )
    return Project(state, decision, next_action, hidden)


async def test_related_follows_links_within_what_the_caller_sees(vault: Vault, project: Project) -> None:
    async with connect(vault, LOCAL_ASSISTANT) as client:
        local = await call(client, "memory_related", {"id": project.decision, "depth": 2})
    async with connect(vault, REMOTE) as client:
        remote = await call(client, "memory_related", {"id": project.decision, "depth": 2})
        hidden = await call(client, "memory_related", {"id": project.hidden_question})
    assert {n["id"] for n in local.data["nodes"]} == {
        project.decision,
        project.state,
        project.next_action,
        project.hidden_question,
    }
    assert {n["id"] for n in remote.data["nodes"]} == {project.decision, project.state, project.next_action}
    assert all(project.hidden_question not in (e["from"], e["to"]) for e in remote.data["edges"])
    assert {"from": project.next_action, "to": project.decision, "type": "depends_on", "weight": 1.0} in remote.data[
        "edges"
    ]
    assert remote.structured == remote.data
    assert hidden.code == "not_found"


async def test_timeline_project_decisions_unresolved(vault: Vault, project: Project) -> None:
    async with connect(vault, REMOTE) as client:
        timeline = await call(client, "memory_timeline", {"subject": "greenhouse"})
        history = await call(client, "memory_get_project_history", {"project": PROJECT})
        decisions = await call(client, "memory_get_decisions", {"project": PROJECT})
        unresolved = await call(client, "memory_get_unresolved", {"domain": "garden"})
        unknown = await call(client, "memory_get_project_history", {"project": "no such project"})
    times = [event["time"] for event in timeline.data["events"]]
    assert times == sorted(times) and times
    assert project.hidden_question not in json.dumps(timeline.data)
    assert history.data["project"] == PROJECT
    assert [r["id"] for r in history.data["states"]] == [project.state]
    assert [r["id"] for r in history.data["decisions"]] == [project.decision]
    assert [r["id"] for r in history.data["unresolved"]] == [project.next_action]
    assert [r["id"] for r in decisions.data["items"]] == [project.decision]
    assert [r["id"] for r in unresolved.data["items"]] == [project.next_action]
    assert unknown.code == "not_found"
    async with connect(vault, LOCAL_ASSISTANT) as client:
        local_open = await call(client, "memory_get_unresolved", {"project": PROJECT})
    # Soonest due first, undated last.
    assert [r["id"] for r in local_open.data["items"]] == [project.next_action, project.hidden_question]


async def test_feedback_is_recorded_for_visible_records_only(vault: Vault, project: Project) -> None:
    async with connect(vault, REMOTE) as client:
        ok = await call(client, "memory_record_feedback", {"id": project.decision, "useful": True, "query": "panels"})
        hidden = await call(client, "memory_record_feedback", {"id": project.hidden_question, "useful": False})
        missing = await call(client, "memory_record_feedback", {"id": "m0123456789ab", "useful": False})
        no_verdict = await call(client, "memory_record_feedback", {"id": project.decision})
    assert ok.data == {"ok": True} and ok.structured == ok.data
    assert hidden.data == missing.data and hidden.code == "not_found"
    assert no_verdict.code == "invalid_argument"
    actions = [event["action"] for event in vault.events_for(OWNER, project.decision)]
    assert actions.count("feedback") == 1


async def test_backup_is_local_only_and_encrypted(vault: Vault) -> None:
    async with connect(vault, LOCAL_ASSISTANT) as client:
        made = await call(client, "memory_backup")
    async with connect(vault, REMOTE) as client:
        refused = await call(client, "memory_backup")
    path = Path(made.data["path"])
    assert made.data["encrypted"] is True and made.data["bytes"] == path.stat().st_size > 0
    assert not path.read_bytes().startswith(b"SQLite format 3")
    assert refused.code == "forbidden"


async def test_purge_only_asks_for_confirmation(vault: Vault, project: Project) -> None:
    async with connect(vault, REMOTE) as client:
        asked = await call(client, "memory_purge", {"id": project.decision, "reason": "wrong project"})
        hidden = await call(client, "memory_purge", {"id": project.hidden_question})
        batch = await call(client, "memory_purge", {"batch_id": "b1"})
        neither = await call(client, "memory_purge", {})
        still = await call(client, "memory_get", {"id": project.decision})
    assert not asked.is_error and asked.data["outcome"] == "confirmation_required" and asked.data["request_id"]
    assert asked.structured == asked.data
    assert hidden.code == "not_found"
    assert batch.code == "forbidden"
    assert neither.code == "invalid_argument"
    assert still.data["memory"]["status"] == "current"
    assert [r["id"] for r in vault.list_purge_requests(OWNER)] == [asked.data["request_id"]]
