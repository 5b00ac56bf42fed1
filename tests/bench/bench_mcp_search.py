"""Search and ingest latency through `memory_search` / `memory_add` over MCP, at 10k and 100k records.

    nice -n 10 .venv/bin/python tests/bench/bench_mcp_search.py [--sizes 10000,100000]
        [--queries 60] [--adds 40] [--no-domain] [--modes inprocess,embedded,relay] [--real 1000] [--keep DIR]

A script, not a test. For each size it makes a fresh encrypted store in a temp folder and bulk-writes
fictional records through `commit_draft` in large transactions (bench_retrieval's generator). The
first `--real` records are embedded with the real model; the others get SYNTHESISED vectors (a real
vector plus noise, normalised): the index, the SQL and the ranking see the same shapes, only the
semantic neighbourhoods are artificial. Then, warm (the model and the matrix loaded by one search
first), with distinct queries (no ranking-cache or request-vector hits):

  inprocess  `Vault.search` in this process: wall and process-CPU per search, p50/p95, and the
             query embedding alone (CPU medians are what the code costs on a shared, loaded machine)
  embedded   `memvault mcp --embedded` driven by the official MCP client over stdio: wall per call,
             and the server process's CPU per call (its /proc counters over all calls, a mean)
  relay      `memvault mcp` relaying to `memvault daemon --headless` (what an assistant gets while
             the app runs): wall per call, the daemon's CPU per call and the relay's

and, in the first MCP mode, `memory_add` (embeddings on, write mode automatic; each add names a domain,
or with --no-domain none, so memvault places it): ms per record, and whether a search right after the
last add finds it. Beside the servers' CPU, the client's own (the
official client parses each answer and checks it against the tool's output schema). What MCP alone
costs: the floor (CPU per `memory_get` of an id that does not exist: transport, SDK and gate, no
store work to speak of) and the client's output-schema check of one search answer (jsonschema, as
the official client runs it). The machine and its load average are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from bench_retrieval import DOMAINS, NAMES, WORDS, bulk_write, cpu_model, synthesise_vectors
from benchkit import served_environment

from memvault.core.retrieval.embeddings import shared_embedder
from memvault.core.retrieval.vectors import backfill
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.search_request import SearchRequest

MEMVAULT = str(Path(sys.executable).with_name("memvault"))
TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")
QUESTIONS = ("what did {} say about the {} and the {}", "{}: {} or {}?", "when is the {} for {} {} due")


def machine() -> str:
    system = f"{platform.system()} {platform.release()}"
    return f"{cpu_model()}, {os.cpu_count()} cores (a shared VM), {system}, Python {platform.python_version()}"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def distinct_queries(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    found: dict[str, None] = {}
    while len(found) < n:
        words = rng.sample(WORDS, 2)
        found[rng.choice(QUESTIONS).format(rng.choice(NAMES), *words)] = None
    return list(found)


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return f"p50 {statistics.median(ordered):6.1f}  p95 {p95:6.1f}"


def cpu_ms(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * TICK_MS  # utime + stime


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def build(home: Path, size: int, real: int) -> None:
    started = time.perf_counter()
    with Vault.open(home, create=True, scrypt_n=2**12) as vault:
        bulk_write(vault, size)
        written = time.perf_counter() - started
        embedded, _ = backfill(vault.ctx, shared_embedder(), limit=real)
        synthetic = synthesise_vectors(vault)
        # The assistant's confident writes commit (the default waits in the approval inbox).
        vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")
    took = time.perf_counter() - started
    print(f"  store: {size} records written in {written:.1f} s; {embedded} embedded, {synthetic} synthesised")
    print(f"  (build {took:.1f} s)")


def in_process(home: Path, queries: list[str]) -> None:
    with Vault.open(home) as vault:
        vault.search(OWNER, SearchRequest.of(query="warm up the model and the index"))
        walls, cpus = [], []
        for query in queries:
            wall, cpu = time.perf_counter(), time.process_time()
            vault.search(OWNER, SearchRequest.of(query=query, limit=10))
            cpus.append((time.process_time() - cpu) * 1000)
            walls.append((time.perf_counter() - wall) * 1000)
        embedder, embeds = shared_embedder(), []
        for query in queries:
            cpu = time.process_time()
            embedder.embed_one(query + " again")
            embeds.append((time.process_time() - cpu) * 1000)
    # The mean too: the MCP modes can only give a server's CPU as a mean over all calls.
    cpu = f"cpu {percentiles(cpus)}  mean {statistics.mean(cpus):.1f}"
    print(f"  inprocess search   wall {percentiles(walls)}   {cpu}  ms")
    print(f"  inprocess query embedding alone   cpu p50 {statistics.median(embeds):.1f} ms")


class CpuMeter:
    """CPU of the server processes (from /proc) and of this client, per call, since it was made."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids = pids
        self.before = {pid: cpu_ms(pid) for pid in pids.values()}
        self.client = time.process_time()

    def per_call(self, calls: int, unit: str = "") -> str:
        spent = {name: (cpu_ms(pid) - self.before[pid]) / calls for name, pid in self.pids.items()}
        # The official client parses every answer and checks it against the output schema: on a
        # shared two-core machine its CPU competes with the server's.
        spent["client"] = (time.process_time() - self.client) * 1000 / calls
        return "  ".join(f"{name} cpu mean {ms:.1f}{unit}" for name, ms in spent.items())


async def over_mcp(
    env: dict[str, str], args: list[str], queries: list[str], adds: int, label: str, *, domains: bool = True
) -> None:
    from mcp import ClientSession, StdioServerParameters  # noqa: PLC0415
    from mcp.client.stdio import stdio_client  # noqa: PLC0415

    params = StdioServerParameters(command=MEMVAULT, args=args, env=env)
    rng = random.Random(time.time_ns())  # new statements even in a kept store
    with open(os.devnull, "w") as err:
        async with stdio_client(params, errlog=err) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("memory_search", {"query": "warm up the model and the index", "limit": 10})
            pids = _server_pids(env, label)
            meter, walls, answer = CpuMeter(pids), [], None
            for query in queries:
                started = time.perf_counter()
                answer = await session.call_tool("memory_search", {"query": query, "limit": 10})
                walls.append((time.perf_counter() - started) * 1000)
            spent = meter.per_call(len(queries))
            print(f"  {label:<9} search   wall {percentiles(walls)}   {spent}  ms   (load {load()})")
            await _layer_alone(session, pids, label, answer)
            if adds:
                meter = CpuMeter(pids)
                await _adds(session, rng, adds, label, domains)
                print("  " + " " * 19 + meter.per_call(adds, " ms/record"))


async def _layer_alone(session: Any, pids: dict[str, int], label: str, answer: Any) -> None:
    """What MCP itself costs: a call the store answers at once (`memory_get` of an id that does not
    exist), and the official client's check of a search answer against the tool's output schema."""
    meter, calls = CpuMeter(pids), 100
    for _ in range(calls):
        await session.call_tool("memory_get", {"id": "no-such-record"})
    print(f"  {label:<9} floor    (memory_get of an unknown id)   {meter.per_call(calls)}  ms")
    from jsonschema import exceptions  # noqa: PLC0415 - as the official client checks an answer
    from jsonschema.validators import validator_for  # noqa: PLC0415
    from referencing import Registry  # noqa: PLC0415

    schema = next(t.output_schema for t in (await session.list_tools()).tools if t.name == "memory_search")
    validator = validator_for(schema)(schema, registry=Registry())
    started = time.process_time()
    for _ in range(calls):
        assert exceptions.best_match(validator.iter_errors(answer.structured_content)) is None
    check = (time.process_time() - started) * 1000 / calls
    print(f"  {label:<9} the client's output-schema check of one search answer   cpu {check:.2f} ms")


async def _adds(session: Any, rng: random.Random, adds: int, label: str, domains: bool) -> None:
    """Adds (each naming a domain, or none: memvault places it), then one search for the last
    statement (its cpu is counted with the adds)."""
    walls, last = [], None
    for i in range(adds):
        words = rng.sample(WORDS, 3)
        statement = f"{rng.choice(NAMES)} booked the {words[0]} {words[1]} for the {words[2]} (ingest {i})"
        started = time.perf_counter()
        placed = {"domain": rng.choice(DOMAINS)} if domains else {}
        answer = await session.call_tool("memory_add", {"statement": statement, "confidence": 0.9, **placed})
        walls.append((time.perf_counter() - started) * 1000)
        last = (statement, _data(answer))
    assert last is not None
    statement, added = last
    found = await session.call_tool("memory_search", {"query": statement, "limit": 10})
    ids = [r["id"] for r in _data(found).get("results", [])]
    print(
        f"  {label:<9} add      wall mean {statistics.mean(walls):6.1f}  {percentiles(walls)}  ms/record"
        f"   outcome {added.get('outcome')}, found by the next search: {added.get('id') in ids}"
    )


def _data(answer: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(answer.content[0].text)
    return data


def _server_pids(env: dict[str, str], label: str) -> dict[str, int]:
    bridge = max(children(os.getpid()))  # the `memvault mcp` the client just spawned
    if label != "relay":
        return {"server": bridge}
    return {"daemon": int(Path(env["MEMVAULT_HOME"], "run", "daemon.lock").read_text().split()[0]), "relay": bridge}


def with_daemon(env: dict[str, str], run: Callable[[], None]) -> None:
    log = Path(env["MEMVAULT_HOME"], "logs", "daemon.log")
    seen = log.stat().st_size if log.exists() else 0  # a kept store's log holds earlier runs
    daemon = subprocess.Popen([MEMVAULT, "daemon", "--headless"], env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 900
        # Ready, and its start-up upkeep (backup, domains, consolidation) done: it competes for the GIL.
        while not (_daemon_ready(env) and log.exists() and "upkeep done" in log.read_text()[seen:]):
            if daemon.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the daemon did not start")
            time.sleep(0.5)
        print(f"  relay: the daemon's start-up upkeep took {time.monotonic() - deadline + 900:.0f} s")
        run()
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(60)


def _daemon_ready(env: dict[str, str]) -> bool:
    status = subprocess.run([MEMVAULT, "--json", "daemon", "--status"], env=env, capture_output=True, check=True)
    info = json.loads(status.stdout)
    return bool(info["running"]) and Path(info["socket"]).exists()


def run_size(size: int, options: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="memvault-bench-mcp-"))
    home = Path(options.keep, f"store-{size}") if options.keep else work / "home"
    env = {**os.environ, "MEMVAULT_HOME": str(home), "XDG_RUNTIME_DIR": str(work / "runtime")}
    (work / "runtime").mkdir(mode=0o700)
    modes = options.modes.split(",")
    print(f"{size} records (load {load()})")
    try:
        if not home.exists():
            build(home, size, options.real)
        if "inprocess" in modes:
            in_process(home, distinct_queries(options.queries, seed=size + 1 + int(time.time())))
        adds = options.adds
        for mode in ("embedded", "relay"):
            if mode not in modes:
                continue
            queries = distinct_queries(options.queries, seed=size + len(mode) + int(time.time()))
            if mode == "embedded":
                asyncio.run(over_mcp(env, ["mcp", "--embedded"], queries, adds, mode, domains=not options.no_domain))
            else:
                with_daemon(env, lambda q=queries, a=adds: asyncio.run(over_mcp(env, ["mcp"], q, a, "relay")))
            adds = 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=60, help="distinct searches per mode")
    parser.add_argument("--adds", type=int, default=40, help="memory_add calls (first MCP mode)")
    parser.add_argument("--no-domain", action="store_true", help="adds name no domain (memvault places them)")
    parser.add_argument("--modes", default="inprocess,embedded,relay")
    parser.add_argument("--real", type=int, default=1000, help="records embedded with the real model")
    parser.add_argument("--keep", metavar="DIR", help="build the stores in DIR and reuse them (adds grow them)")
    options = parser.parse_args()
    served_environment()
    print(f"machine: {machine()}")
    for size in (int(s) for s in options.sizes.split(",")):
        run_size(size, options)


if __name__ == "__main__":
    main()
