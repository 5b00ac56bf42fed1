"""The change feed across processes: a commit in one process reaches a listener in another, with
and without the daemon; the listener stops cleanly; `memvault changes --follow` prints it.

Latency is asserted loosely (each notification within `BOUND_S` of its commit, on a shared
2-core machine); the figures (median, p95) come from tests/bench/bench_changes.py.
"""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from datetime import datetime
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client

from memvault.core.operations.changes import Change, ChangeBatch, ChangeKind
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.desktop.change_listener import ChangeListener
from memvault.desktop.change_push import SUBSCRIBE, encode
from memvault.mcp_bridge import relay

from .bridgekit import MEMVAULT, address, bridge_params, env_for, run_cli, running_daemon, start_daemon, stop_daemon

BOUND_S = 2.0
WRITER = """
import sys, time
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vault import Vault
with Vault.open(sys.argv[1]) as vault:
    for n in range(int(sys.argv[2])):
        text = f"Odalys planted Brindlewick bulb number {n} by the pond"
        answer = vault.add(OWNER, Draft.of(statement=text, domain="garden"))
        print(answer["id"], flush=True)
        time.sleep(0.05)
"""


class Heard:
    """What a listener handed over, with the wall-clock time each batch arrived."""

    def __init__(self) -> None:
        self.changes: list[tuple[Change, float]] = []
        self.batches: list[ChangeBatch] = []
        self.arrived = threading.Condition()

    def __call__(self, batch: ChangeBatch) -> None:
        now = time.time()
        with self.arrived:
            self.batches.append(batch)
            self.changes += [(change, now) for change in batch.changes]
            self.arrived.notify_all()

    def wait_for(self, count: int, kind: ChangeKind, timeout: float = 30.0) -> list[Change]:
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.of(kind)) >= count, timeout)
            return self.of(kind)

    def of(self, kind: ChangeKind) -> list[Change]:
        return [change for change, _ in self.changes if change.kind is kind]

    def latencies(self, kind: ChangeKind) -> list[float]:
        """Seconds from each change's commit (its event time, taken just before) to its arrival here."""
        return [at - datetime.fromisoformat(c.time).timestamp() for c, at in self.changes if c.kind is kind]


def write_in_another_process(home: Path, count: int) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", WRITER, str(home), str(count)],
        env=env_for(home, MEMVAULT_EMBEDDINGS="off"),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return done.stdout.decode().split()


@contextmanager
def maybe_daemon(home: Path, way: str) -> Iterator[None]:
    with running_daemon(home, MEMVAULT_EMBEDDINGS="off") if way == "daemon" else nullcontext():
        yield


@pytest.mark.parametrize("way", ["file", "daemon"])
def test_commits_in_another_process_arrive_in_order_within_the_bound(vault: Vault, home: Path, way: str) -> None:
    with maybe_daemon(home, way):
        heard = Heard()
        with ChangeListener(vault, heard) as listener:
            assert listener.mode == way
            ids = write_in_another_process(home, 10)
            added = heard.wait_for(10, ChangeKind.MEMORY_ADDED)
            assert [change.memory_ids[0] for change in added] == ids
            cursors = [change.cursor for change, _ in heard.changes]
            assert cursors == sorted(set(cursors))  # in order, none twice
            latencies = heard.latencies(ChangeKind.MEMORY_ADDED)
            assert max(latencies) < BOUND_S, latencies
        assert not listener.running


def test_a_listener_with_a_cursor_catches_up_first(vault: Vault, home: Path) -> None:
    before = vault.changes_since(OWNER, None).cursor
    first = vault.add(OWNER, Draft.of(statement="Odalys moved the Brindlewick bulbs indoors", domain="garden"))["id"]
    with running_daemon(home, MEMVAULT_EMBEDDINGS="off"):
        heard = Heard()
        with ChangeListener(vault, heard, cursor=before):
            assert [c.memory_ids[0] for c in heard.wait_for(1, ChangeKind.MEMORY_ADDED)] == [first]


def test_an_assistant_write_through_the_mcp_bridge_reaches_the_listener(vault: Vault, home: Path) -> None:
    heard = Heard()

    async def propose() -> str:
        with (home / "bridge.err").open("w") as err:
            async with (
                stdio_client(bridge_params(home), errlog=err) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                result = await session.call_tool(
                    "memory_add", {"statement": "Odalys prefers the Quillfeather trowel", "domain": "garden"}
                )
                answer = json.loads(result.content[0].text)  # type: ignore[union-attr]
                assert "proposal_id" in answer, answer
                return str(answer["proposal_id"])

    with ChangeListener(vault, heard) as listener:
        assert listener.mode == "file"
        proposal_id = anyio.run(propose)
        staged = heard.wait_for(1, ChangeKind.PROPOSAL_STAGED)
        assert [c.proposal_id for c in staged] == [proposal_id]
        assert staged[0].surface.value == "local" and staged[0].memory_ids == ()


def test_the_listener_hands_over_to_the_file_signal_when_the_daemon_stops(vault: Vault, home: Path) -> None:
    heard = Heard()
    daemon = start_daemon(home, MEMVAULT_EMBEDDINGS="off")
    try:
        with ChangeListener(vault, heard) as listener:
            assert listener.mode == "daemon"
            assert stop_daemon(daemon) == 0
            deadline = time.monotonic() + 10
            while listener.mode != "file" and time.monotonic() < deadline:
                time.sleep(0.05)
            assert listener.mode == "file"
            added = run_cli(home, "--json", "add", "Odalys repainted the Brindlewick shed", "--domain", "garden")
            assert added.returncode == 0, added.stderr.decode()[-2000:]
            new_id = json.loads(added.stdout)["id"]
            assert [c.memory_ids[0] for c in heard.wait_for(1, ChangeKind.MEMORY_ADDED)] == [new_id]
    finally:
        stop_daemon(daemon)


@pytest.mark.parametrize("way", ["file", "daemon"])
def test_stop_is_clean_and_final(vault: Vault, home: Path, way: str) -> None:
    with maybe_daemon(home, way):
        heard = Heard()
        listener = ChangeListener(vault, heard)
        listener.start()
        assert listener.running and listener.mode == way
        started = time.monotonic()
        listener.stop()
        assert time.monotonic() - started < 2.0
        assert not listener.running
        listener.stop()  # twice is fine
        vault.add(OWNER, Draft.of(statement="Odalys watered the Brindlewick bulbs", domain="garden"))
        write_in_another_process(home, 1)
        time.sleep(0.5)
        assert heard.batches == []
        assert not [t for t in threading.enumerate() if t.name == "memvault-changes"]


def test_follow_prints_json_lines_until_sigterm(vault: Vault, home: Path) -> None:
    proc = subprocess.Popen(
        [*MEMVAULT, "--json", "changes", "--follow"],
        env=env_for(home, MEMVAULT_EMBEDDINGS="off"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        ready = proc.stderr.readline().decode()
        assert "following changes after cursor" in ready and "change signal" in ready, ready
        lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
        new_id = vault.add(
            OWNER, Draft.of(statement="Odalys keeps Brindlewick seeds in the blue tin", domain="garden")
        )["id"]
        change = json.loads(lines.get(timeout=10))
        assert change["kind"] == "memory_added" and change["memory_ids"] == [new_id]
        assert "Brindlewick" not in json.dumps(change)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_changes_without_follow_lists_the_log(vault: Vault, home: Path) -> None:
    vault.add(OWNER, Draft.of(statement="Odalys labelled the Brindlewick rows", domain="garden"))
    listed = run_cli(home, "--json", "changes", "--since", "0")
    assert listed.returncode == 0, listed.stderr.decode()
    rows = [json.loads(line) for line in listed.stdout.decode().splitlines()]
    assert [row["kind"] for row in rows][-1] == "memory_added"
    assert run_cli(home, "changes", "--since", "-3").returncode == 64  # a usage error (EX_USAGE)


def test_a_bad_subscription_is_answered_with_an_error(home: Path) -> None:
    with running_daemon(home, MEMVAULT_EMBEDDINGS="off"):
        sock = relay.connect(address(home))
        assert sock is not None
        with sock:
            sock.settimeout(30)
            sock.sendall(encode({"jsonrpc": "2.0", "id": 7, "method": SUBSCRIBE, "params": {"cursor": "soon"}}))
            answer: dict[str, Any] = json.loads(sock.makefile("rb").readline())
        assert answer["id"] == 7 and answer["error"]["data"]["code"] == "invalid_argument"
