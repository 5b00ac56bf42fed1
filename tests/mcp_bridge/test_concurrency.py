"""Several assistants on one daemon at once lose no write and corrupt nothing.

A real daemon (subprocess, headless, automatic write mode) serves four real MCP clients, each
spawned through `memvault mcp` (relay), doing 250 interleaved adds and corrections. Meanwhile
the person approves the staged corrections from another process (this test process, on its own
connection to the same store). Afterwards every write is there exactly once (list, search,
get) and the event log tells the same story.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client
from mcp.types import TextContent

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER

from .bridgekit import bridge_params, make_domains, running_daemon

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

CLIENTS = 4
OPERATIONS = 250
CORRECT_EVERY = 5  # every 5th operation corrects one of the client's own earlier records
DOMAINS = ("orchard", "workshop")
AUTO = "automatic-write-within-approved-scope"
THINGS = ("pear grafts", "oak planks", "apple crates", "chisel set", "beehive frames", "lathe belts")


@dataclass
class Writer:
    """What one client wrote, as the server answered it."""

    number: int
    added: dict[str, str] = field(default_factory=dict)  # id -> statement
    corrections: dict[str, str] = field(default_factory=dict)  # corrected id -> new statement
    answers: Counter[str] = field(default_factory=Counter)


def statement(client: int, op: int, corrected: bool = False) -> str:
    thing = THINGS[(client + op) % len(THINGS)]
    verb = "now keeps" if corrected else "keeps"
    return f"Shelf {client}-{op} in the {DOMAINS[op % 2]} {verb} the {thing} (fictional ledger line {client}.{op})"


def data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    block = result.content[0]
    assert isinstance(block, TextContent)
    answer: dict[str, Any] = json.loads(block.text)
    return answer


@asynccontextmanager
async def session(home: Path, errlog: Any) -> AsyncIterator[ClientSession]:
    async with (
        stdio_client(bridge_params(home), errlog=errlog) as (read, write),
        ClientSession(read, write) as opened,
    ):
        await opened.initialize()
        yield opened


async def run_writer(home: Path, writer: Writer, errlog: Any) -> None:
    rng = random.Random(writer.number)
    async with session(home, errlog) as client:
        for op in range(OPERATIONS):
            open_ids = [i for i in writer.added if i not in writer.corrections]
            if op % CORRECT_EVERY == CORRECT_EVERY - 1 and open_ids:
                target = rng.choice(open_ids)
                text = statement(writer.number, op, corrected=True)
                answer = data(await client.call_tool("memory_correct", {"id": target, "statement": text}))
                writer.corrections[target] = text
            else:
                text = statement(writer.number, op)
                args = {"statement": text, "domain": DOMAINS[op % 2], "type": "FACT"}
                answer = data(await client.call_tool("memory_add", args))
                if answer["outcome"] == "added":
                    writer.added[answer["id"]] = text
            writer.answers[answer["outcome"]] += 1
            if op % 7 == 0:
                await anyio.sleep(rng.random() / 100)  # vary the interleaving


def approve_while_writing(home: Path, done: anyio.Event, approved: list[str]) -> None:
    """The person approves staged corrections from another process while the clients write."""
    with Vault.open(home) as vault:
        while True:
            finished = done.is_set()
            pending = vault.proposals(OWNER, "pending")
            for proposal in pending:
                result = vault.approve(OWNER, proposal["id"])
                approved.append(str(result["id"]))
            if finished and not pending:
                return
            anyio.from_thread.run(anyio.sleep, 0.05)


async def all_current(client: ClientSession, domain: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        args: dict[str, Any] = {"domain": domain, "limit": 200}
        if cursor:
            args["cursor"] = cursor
        page = data(await client.call_tool("memory_list", args))
        items += page["items"]
        cursor = page["next_cursor"]
        if not cursor:
            return items


async def test_four_clients_250_writes_each_lose_nothing(home: Path, tmp_path: Path) -> None:
    make_domains(home, *DOMAINS)
    with Vault.open(home) as vault:  # corrections wait for the person, who approves them meanwhile
        vault.set_setting(OWNER, "auto_write_review_changes", True)
    writers = [Writer(n) for n in range(CLIENTS)]
    approved: list[str] = []
    done = anyio.Event()
    with running_daemon(home, MEMVAULT_WRITE_MODE=AUTO), (tmp_path / "stderr.txt").open("w") as errlog:

        async def writers_then_done() -> None:
            async with anyio.create_task_group() as group:
                for writer in writers:
                    group.start_soon(run_writer, home, writer, errlog)
            done.set()

        async with anyio.create_task_group() as group:
            group.start_soon(writers_then_done)
            group.start_soon(anyio.to_thread.run_sync, approve_while_writing, home, done, approved)

        adds = sum(len(w.added) for w in writers)
        corrections = {old: new for w in writers for old, new in w.corrections.items()}
        for writer in writers:
            # Automatic mode commits adds in existing domains; corrections wait (auto_write_review_changes).
            assert writer.answers["added"] == len(writer.added)
            assert writer.answers["staged"] == len(writer.corrections)
            assert writer.answers["added"] + writer.answers["staged"] == OPERATIONS
        assert adds == CLIENTS * (OPERATIONS - OPERATIONS // CORRECT_EVERY)
        assert len(corrections) == CLIENTS * (OPERATIONS // CORRECT_EVERY)
        assert len(approved) == len(corrections)

        # Through a fifth session: every current statement exactly once, nothing else.
        async with session(home, errlog) as client:
            listed = [item for domain in DOMAINS for item in await all_current(client, domain)]
            probe = next(iter(corrections.values()))
            found = data(await client.call_tool("memory_search", {"query": probe, "limit": 3}))
        counts = Counter(item["statement"] for item in listed)
        assert max(counts.values()) == 1
        written = {text for w in writers for text in w.added.values()}
        expected = (written - {w.added[old] for w in writers for old in w.corrections}) | set(corrections.values())
        seeds = {text for text in counts if text.endswith("(fictional seed)")}
        assert set(counts) - seeds == expected and len(seeds) == len(DOMAINS)
        assert probe in [hit["statement"] for hit in found["results"]]

    # The store itself, after the daemon stopped: each record by id, and the event log.
    with Vault.open(home) as vault:
        for writer in writers:
            for memory_id, text in writer.added.items():
                record = vault.get(OWNER, memory_id)["memory"]
                assert record["statement"] == text
                assert record["status"] == ("superseded" if memory_id in writer.corrections else "current")
                if memory_id in writer.corrections:
                    successor = vault.get(OWNER, record["superseded_by_id"])["memory"]
                    assert successor["statement"] == writer.corrections[memory_id]
                    assert successor["supersedes_id"] == memory_id
        with vault.ctx.reading() as conn:
            actions = dict(conn.raw.execute("SELECT action, count(*) FROM events GROUP BY action").fetchall())
            proposed = conn.raw.execute(
                "SELECT count(*) FROM events WHERE action = 'proposed' AND json_extract(details, '$.kind') = 'correct'"
            ).fetchone()[0]
            integrity = conn.raw.execute("PRAGMA integrity_check").fetchone()[0]
        assert integrity == "ok"
        assert actions["added"] == len(DOMAINS) + adds + len(corrections)  # seeds, adds, corrections' new records
        assert actions["superseded"] == len(corrections)
        assert actions["approved"] == len(corrections)
        assert proposed == len(corrections)
        assert vault.proposals(OWNER, "pending") == []
        status = vault.status(OWNER)["counts"]
        assert status["current"] == len(DOMAINS) + adds
        assert status["superseded"] == len(corrections)
