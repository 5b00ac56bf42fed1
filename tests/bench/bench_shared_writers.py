"""Two homes on one shared PostgreSQL store, two writing clients each: none lost, none doubled, and how
fast. Each client is an assistant's `memvault mcp --embedded` (a process of its own, driven by the
official MCP client) making `--writes` `memory_add` calls, all four at once; each home's app-side
listener (`ChangeListener`, LISTEN/NOTIFY) hears the other home's adds as they commit.

    .venv/bin/python tests/bench/bench_shared_writers.py [--writes 250]

A script, not a test (tests/store/test_shared_store.py writes 2 x 2 x 15 in threads and checks the
same way, with the same helper). The server is pgserver's PostgreSQL 16 with pgvector, started here,
over a Unix socket on this machine. Printed: the machine, throughput (adds committed per second over
the four clients, from the moment all four are up and warm, and the wall per add, p50/p95), the
cross-home change latency (the other home's listener hearing an add, after the add's answer reached
its client and after its call was sent: the commit lies between, and a listener may hear it before
the answer arrives, so the first figure can be below 0; median and max), then the checks: every add
answered with an id no other add had, stored once, listed once in each home's change feed, every
feed in order. Exits non-zero when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # memory_keyring, which the test module imports
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))

from bench_mcp_search import MEMVAULT, load, machine
from bench_retrieval import NAMES, WORDS
from benchkit import new_database, percentile, served_environment
from test_shared_store import assert_each_write_once

from memvault.core.operations.changes import ChangeBatch
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from memvault.core.writer.writes import ANY_DOMAIN
from memvault.desktop.change_listener import ChangeListener
from memvault.desktop.commands.setup import create_store

HOMES = ("a", "b")
CLIENTS = 2  # per home


# record id -> (the home that wrote it, when its call was sent, when its answer came)
Answered = dict[str, tuple[str, float, float]]


class Heard:
    """When each home's listener heard each add (by record id)."""

    def __init__(self) -> None:
        self.at: dict[str, dict[str, float]] = {home: {} for home in HOMES}
        self._lock = threading.Lock()

    def listener(self, home: str) -> Any:
        def on_changes(batch: ChangeBatch) -> None:
            now = time.perf_counter()
            with self._lock:
                for change in batch.changes:
                    if change.kind.value == "memory_added":
                        self.at[home].setdefault(change.memory_ids[0], now)

        return on_changes


async def client(
    home: Path, work: Path, name: str, writes: int, answered: Answered, start: asyncio.Barrier
) -> list[float]:
    """One assistant's server on `home`, making `writes` adds once every client is ready (`start`);
    the wall of each add (ms)."""
    from mcp import ClientSession, StdioServerParameters  # noqa: PLC0415
    from mcp.client.stdio import stdio_client  # noqa: PLC0415

    runtime = work / f"runtime-{name}"
    runtime.mkdir(mode=0o700)
    env = {**os.environ, "MEMVAULT_HOME": str(home), "XDG_RUNTIME_DIR": str(runtime)}
    params = StdioServerParameters(command=MEMVAULT, args=["mcp", "--embedded"], env=env)
    walls = []
    with open(os.devnull, "w") as err:
        async with stdio_client(params, errlog=err) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("memory_search", {"query": "warm up the model and the index", "limit": 1})
            await start.wait()
            for n in range(writes):
                words = (WORDS[n % len(WORDS)], WORDS[(n * 7 + 3) % len(WORDS)])
                statement = (
                    f"Client {name} logged that {NAMES[n % len(NAMES)]} checked the {words[0]} and {words[1]} ({n})"
                )
                started = time.perf_counter()
                answer = await session.call_tool("memory_add", {"statement": statement, "confidence": 0.9})
                done = time.perf_counter()
                walls.append((done - started) * 1000)
                data = answer.structured_content or {}
                if answer.is_error or data.get("outcome") != "added":
                    raise SystemExit(f"client {name}: add {n} was not added: {answer.content[0].text[:200]}")
                answered[str(data["id"])] = (name[0], started, done)
    return walls


async def write_all(homes: dict[str, Path], work: Path, writes: int) -> tuple[Answered, list[float], float]:
    """Every client's adds, all at once (started together once all four are up and warm); the time
    from that start to the last answer."""
    answered: Answered = {}
    clients = [(h, f"{h}{n}") for h in HOMES for n in range(1, CLIENTS + 1)]
    start = asyncio.Barrier(len(clients) + 1)
    running = [asyncio.create_task(client(homes[h], work, name, writes, answered, start)) for h, name in clients]
    await start.wait()
    started = time.perf_counter()
    walls = await asyncio.gather(*running)
    return answered, [w for ws in walls for w in ws], time.perf_counter() - started


def main() -> None:
    import pgserver  # noqa: PLC0415

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--writes", type=int, default=250, help="adds per client (two clients on each of two homes)")
    options = parser.parse_args()
    served_environment()
    print(f"machine: {machine()}")
    work = Path(tempfile.mkdtemp(prefix="memvault-shared-writers-"))
    server = pgserver.get_server(work / "pg", cleanup_mode="stop")
    try:
        print(
            f"PostgreSQL {server.psql('SHOW server_version;').split()[2]} (pgserver) over a Unix socket; load {load()}"
        )
        url = new_database(server.get_uri())
        homes = {home: work / f"home-{home}" for home in HOMES}
        for home in homes.values():
            create_store(str(home), url)
        with Vault.open(homes["a"]) as vault:  # store-wide settings: an assistant's confident adds commit
            vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")
            vault.set_setting(OWNER, "auto_write_domains", ANY_DOMAIN)  # into the domains placement chooses
        heard = Heard()
        vaults = {home: Vault.open(path) for home, path in homes.items()}
        try:
            listeners = [ChangeListener(vaults[h], heard.listener(h), use_daemon=False) for h in HOMES]
            for listener in listeners:
                listener.start()
            answered, walls, took = asyncio.run(write_all(homes, work, options.writes))
            time.sleep(2.0)  # the last notifications
            for listener in listeners:
                listener.stop()
            report(answered, walls, took, heard)
            try:
                assert_each_write_once(list(vaults.values()), list(answered))
            except AssertionError as failed:
                print(f"FAILED: {failed}")
                raise SystemExit(1) from None
            print(
                f"checks: {len(answered)} adds, each id once, stored once and listed once in each home's"
                " change feed, every feed in order: passed"
            )
        finally:
            for vault in vaults.values():
                vault.close()
    finally:
        server.cleanup()
        import shutil  # noqa: PLC0415

        shutil.rmtree(work, ignore_errors=True)


def report(answered: dict[str, tuple[str, float]], walls: list[float], took: float, heard: Heard) -> None:
    total = len(answered)
    print(
        f"{len(HOMES)} homes x {CLIENTS} clients x {total // (len(HOMES) * CLIENTS)} adds: {total} in {took:.1f} s,"
        f" {total / took:.1f} adds/s;"
        f" per add p50 {statistics.median(walls):.1f} ms, p95 {percentile(walls, 0.95):.1f} ms (load {load()})"
    )
    after_answer, after_call, unheard = [], [], 0
    for memory_id, (home, sent_at, answered_at) in answered.items():
        other = next(h for h in HOMES if h != home)
        at = heard.at[other].get(memory_id)
        if at is None:
            unheard += 1
        else:
            after_answer.append((at - answered_at) * 1000)
            after_call.append((at - sent_at) * 1000)
    if after_answer:
        print(
            "cross-home change latency, the other home's listener hearing an add (the commit lies between):"
            f" after its answer median {statistics.median(after_answer):.1f} ms, max {max(after_answer):.1f} ms;"
            f" after its call median {statistics.median(after_call):.1f} ms, max {max(after_call):.1f} ms"
            f" ({len(after_answer)} heard, {unheard} not heard)"
        )


if __name__ == "__main__":
    main()
