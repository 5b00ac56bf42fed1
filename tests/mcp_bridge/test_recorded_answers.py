"""The MCP answers of a fixed script of calls, compared with a recording made before the typed Vault API.

Ids are replaced by placeholders in order of appearance and the clock is fixed, so any change to an
answer's keys, values or wording shows up as a diff. Search answers are compared by shape only: their
scores and packets belong to the retrieval brain, which other work changes on purpose.

Re-record (only for a deliberate contract change): MEMVAULT_RECORD_ANSWERS=1 pytest this file.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER

from .helpers import call, connect

VARYING = ("schema_version", "next_cursor")  # grows with migrations / embeds a random id
RECORDING = Path(__file__).with_name("recorded_answers.json")
ID = re.compile(r"\b(?:m|pr|e|p|pu)[0-9a-f]{12}\b")

pytestmark = pytest.mark.anyio


def _placeholders(value: Any, seen: dict[str, str], home: str) -> Any:
    if isinstance(value, dict):
        return {
            k: f"<{k}>" if k in VARYING and v is not None else _placeholders(v, seen, home) for k, v in value.items()
        }
    if isinstance(value, list):
        return [_placeholders(v, seen, home) for v in value]
    if isinstance(value, str):
        value = value.replace(home, "<home>")
        return ID.sub(lambda m: seen.setdefault(m.group(0), f"<id{len(seen) + 1}>"), value)
    return value


def _shape(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in sorted(value.items())}
    if isinstance(value, list):
        return [_shape(value[0])] if value else []
    return type(value).__name__


async def _script(vault: Vault, clock: FixedClock) -> list[tuple[str, dict[str, Any], Any]]:
    answers: list[tuple[str, dict[str, Any], Any]] = []
    async with connect(vault, LOCAL_ASSISTANT) as client:

        async def step(name: str, args: dict[str, Any] | None = None, *, shape: bool = False) -> dict[str, Any]:
            clock.advance(minutes=1)  # distinct times: orders never fall back on random ids
            answer = await call(client, name, args or {})
            answers.append((name, args or {}, _shape(answer.data) if shape else answer.data))
            return answer.data

        await step("memory_status")
        staged = await step("memory_add", {"statement": "Ilse prefers tea over coffee", "domain": "food"})
        vault.approve(OWNER, staged["proposal_id"])
        vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")
        vault.set_setting(OWNER, "auto_write_domains", ["food", "work"])
        project = await step(
            "memory_add",
            {"statement": "The Orchard app rewrite", "type": "PROJECT", "domain": "work", "tags": ["project:orchard"]},
        )
        decision = await step(
            "memory_add",
            {
                "statement": "Orchard will use SQLite for its offline cache",
                "type": "DECISION",
                "domain": "work",
                "tags": ["project:orchard"],
                "entities": ["Orchard", "SQLite"],
                "links": [{"type": "part_of_project", "target_id": project["id"]}],
            },
        )
        question = await step(
            "memory_add",
            {
                "statement": "Should Orchard sync photos on mobile data?",
                "type": "OPEN_QUESTION",
                "domain": "work",
                "tags": ["project:orchard"],
                "due_at": "2026-04-01",
            },
        )
        await step("memory_add", {"statement": "Ilse prefers tea over coffee.", "domain": "food"})
        await step("memory_add", {"statement": "my api key is sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"})
        await step("memory_add", {"statement": "x", "importance": 7})
        await step("memory_get", {"id": decision["id"]})
        await step("memory_get", {"id": "m000000000000"})
        await step("memory_list", {"domain": "work", "limit": 2})
        await step("memory_correct", {"id": decision["id"], "statement": "Orchard will use IndexedDB for its cache"})
        await step("memory_archive", {"id": question["id"], "reason": "answered in the meeting"})
        await step("memory_restore", {"id": question["id"]})
        await step("memory_related", {"id": project["id"]})
        await step("memory_timeline", {"domain": "work"})
        await step("memory_get_project_history", {"project": "orchard"})
        await step("memory_get_decisions", {"project": "orchard", "include_history": True})
        await step("memory_get_unresolved", {"project": "orchard"})
        await step(
            "memory_propose",
            {
                "candidates": [
                    {"statement": "Ilse prefers tea over coffee", "domain": "food"},
                    {"statement": "ok thanks"},
                ]
            },
        )
        await step("memory_record_feedback", {"id": project["id"], "useful": True})
        await step("memory_purge", {"id": question["id"], "reason": "no longer needed"})
        await step("memory_search", {"query": "what does Orchard use for its cache?"}, shape=True)
        await step("memory_search", {"query": "tea", "shadow": True}, shape=True)
        await step("memory_export_markdown", {"domain": "food"})
        await step("memory_status")
    return answers


async def test_answers_match_the_recording(home: Path, clock: FixedClock) -> None:
    with Vault.open(home, clock=clock) as vault:
        vault.set_setting(OWNER, "embeddings", "off")
        answers = await _script(vault, clock)
    got = json.loads(json.dumps(_placeholders([list(step) for step in answers], {}, str(home))))
    if os.environ.get("MEMVAULT_RECORD_ANSWERS"):
        RECORDING.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n")
    recorded = json.loads(RECORDING.read_text())
    assert len(got) == len(recorded)
    for (name, _args, answer), (rec_name, _rec_args, rec_answer) in zip(got, recorded, strict=True):
        assert (name, answer) == (rec_name, rec_answer)
