"""The two store engines through MCP, in one run: `memory_search` and `memory_add` on a SQLCipher store
and on a PostgreSQL store (pgserver: PostgreSQL 16 + pgvector, started here, reached over a Unix
socket on this machine) holding the same fictional records, the calls interleaved.

    .venv/bin/python tests/bench/bench_engines_mcp.py [--records 10000] [--queries 60] [--adds 40]
        [--real 300] [--keep DIR]

A script, not a test. Each store is built alike: `--records` fictional records written through
`commit_draft` in transactions of 2,000 (bench_retrieval's generator, same seed: the same content on
both), the first `--real` embedded with the real model, the others given SYNTHESISED vectors (a real
vector plus noise, normalised; same seed), the write mode set to commit an assistant's confident adds.
The PostgreSQL store is then VACUUMed and ANALYZEd, as autovacuum does within a minute or two of a
bulk load (its time is printed). Then one `memvault mcp --embedded` per store, driven by the official
MCP client over stdio, is warmed (one search), and the same distinct searches (no ranking-cache hits),
then the same adds (each naming a domain), go to both, one call to each in turn (which goes first
alternates), so the machine's load falls on both alike. Printed: wall p50/p95 per call and each
server's CPU per call (its /proc counters, a mean), per engine, and PostgreSQL's over SQLCipher's;
then, in this process, the round trips PostgreSQL is asked for by a search (to its answer), by its
usage write (after the answer) and by an assistant's add.

What building costs through the product's write path (2 cores, AMD EPYC, shared and loaded): 10k
records ~22-33 s on PostgreSQL, ~5 s on SQLCipher; 100k ~5-9 minutes on PostgreSQL, ~70-80 s on
SQLCipher (the whole run at 100k: ~9-12 minutes). `--keep DIR` keeps the stores and the server's data
in DIR and reuses them (the adds grow them).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from bench_mcp_search import MEMVAULT, CpuMeter, children, distinct_queries, load, machine
from bench_retrieval import DOMAINS, NAMES, WORDS, bulk_write, synthesise_vectors
from benchkit import new_database, percentile, served_environment

from memvault.core.retrieval.embeddings import shared_embedder
from memvault.core.retrieval.vectors import backfill
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.core.vocabulary.search_request import SearchRequest

ENGINES = ("sqlcipher", "postgresql")


def build(home: Path, records: int, real: int, shared_store: str | None) -> None:
    """The same fictional store on either engine (`shared_store`: a PostgreSQL database's URL)."""
    started = time.perf_counter()
    with Vault.open(home, create=True, scrypt_n=2**12, shared_store=shared_store) as vault:
        bulk_write(vault, records)
        written = time.perf_counter() - started
        embedded, _ = backfill(vault.ctx, shared_embedder(), limit=real)
        synthetic = synthesise_vectors(vault)
        vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")
    took = time.perf_counter() - started
    engine = "postgresql" if shared_store else "sqlcipher"
    print(
        f"  {engine:<10} built: {records} records written in {written:.1f} s,"
        f" {embedded} embedded, {synthetic} synthesised ({took:.1f} s in all)",
        flush=True,
    )
    if shared_store:
        import psycopg  # noqa: PLC0415

        started = time.perf_counter()
        with psycopg.connect(shared_store, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")  # what autovacuum does soon after a bulk load
        print(f"  postgresql VACUUM ANALYZE after the load: {time.perf_counter() - started:.1f} s", flush=True)


class Server:
    """One `memvault mcp --embedded` on a home, its session and its timings."""

    def __init__(self, engine: str, session: Any, pid: int) -> None:
        self.engine, self.session, self.pid = engine, session, pid
        self.walls: dict[str, list[float]] = {"search": [], "add": []}
        self.cpu: dict[str, str] = {}

    async def call(self, kind: str, tool: str, arguments: dict[str, Any]) -> Any:
        started = time.perf_counter()
        answer = await self.session.call_tool(tool, arguments)
        self.walls[kind].append((time.perf_counter() - started) * 1000)
        if answer.is_error:
            raise SystemExit(f"{self.engine}: {tool} failed: {answer.content[0].text}")
        return answer


async def _interleaved(servers: list[Server], kind: str, calls: list[tuple[str, dict[str, Any]]]) -> None:
    meters = {s.engine: CpuMeter({"server": s.pid}) for s in servers}
    for n, (tool, arguments) in enumerate(calls):
        for server in servers if n % 2 == 0 else servers[::-1]:
            await server.call(kind, tool, arguments)
    for server in servers:
        server.cpu[kind] = meters[server.engine].per_call(len(calls)).split("  ")[0]


async def over_mcp(homes: dict[str, Path], work: Path, queries: list[str], adds: int) -> list[Server]:
    from mcp import ClientSession, StdioServerParameters  # noqa: PLC0415
    from mcp.client.stdio import stdio_client  # noqa: PLC0415

    servers: list[Server] = []
    async with contextlib.AsyncExitStack() as stack:
        err = stack.enter_context(open(os.devnull, "w"))  # noqa: SIM115 - the servers' stderr
        for engine, home in homes.items():
            runtime = work / f"runtime-{engine}"
            runtime.mkdir(mode=0o700, exist_ok=True)
            env = {**os.environ, "MEMVAULT_HOME": str(home), "XDG_RUNTIME_DIR": str(runtime)}
            before = set(children(os.getpid()))
            params = StdioServerParameters(command=MEMVAULT, args=["mcp", "--embedded"], env=env)
            read, write = await stack.enter_async_context(stdio_client(params, errlog=err))
            session = await stack.enter_async_context(ClientSession(read, write))
            await session.initialize()
            (pid,) = set(children(os.getpid())) - before
            server = Server(engine, session, pid)
            await session.call_tool("memory_search", {"query": "warm up the model and the index", "limit": 10})
            servers.append(server)
        await _interleaved(servers, "search", [("memory_search", {"query": q, "limit": 10}) for q in queries])
        rng = random.Random(time.time_ns())  # new statements even in a kept store
        statements = []
        for i in range(adds):
            words = rng.sample(WORDS, 3)
            statements.append(f"{rng.choice(NAMES)} booked the {words[0]} {words[1]} for the {words[2]} (ingest {i})")
        add_calls = [
            ("memory_add", {"statement": s, "confidence": 0.9, "domain": rng.choice(DOMAINS)}) for s in statements
        ]
        await _interleaved(servers, "add", add_calls)
        if statements:
            for server in servers:  # the last add is found by the next search
                found = await server.session.call_tool("memory_search", {"query": statements[-1], "limit": 10})
                server.cpu["found"] = str(statements[-1].rsplit("(", 1)[1] in found.content[0].text)
    return servers


def report(servers: list[Server]) -> None:
    by_engine = {s.engine: s for s in servers}
    for kind in ("search", "add"):
        for server in servers:
            walls = server.walls[kind]
            if walls:
                print(
                    f"  {server.engine:<10} {kind:<6} wall p50 {statistics.median(walls):6.1f}"
                    f"  p95 {percentile(walls, 0.95):6.1f} ms   {server.cpu[kind]} ms   ({len(walls)} calls)"
                )
    sq, pg = by_engine["sqlcipher"].walls, by_engine["postgresql"].walls
    ratios = [
        f"{kind} p50 {statistics.median(pg[kind]) / statistics.median(sq[kind]):.2f}x"
        f" (p95 {percentile(pg[kind], 0.95) / percentile(sq[kind], 0.95):.2f}x)"
        for kind in ("search", "add")
        if sq[kind] and pg[kind]
    ]
    print(f"  postgresql / sqlcipher: {', '.join(ratios)}")
    if "found" in by_engine["sqlcipher"].cpu:
        print("  the last add found by the next search: " + ", ".join(f"{s.engine} {s.cpu['found']}" for s in servers))


@contextlib.contextmanager
def counted(raw: Any) -> Iterator[dict[str, int]]:
    """Round trips on a psycopg connection, wrapped for this benchmark only: each `execute` outside a
    pipeline, each pipeline (its statements travel together), each cursor's `executemany` (psycopg
    pipelines its rows)."""
    import psycopg  # noqa: PLC0415

    counts = {"statements": 0}
    execute, pipeline, executemany = raw.execute, raw.pipeline, psycopg.Cursor.executemany
    inside = [0]

    def counting(*args: Any, **kwargs: Any) -> Any:
        counts["statements"] += 0 if inside[0] else 1
        return execute(*args, **kwargs)

    @contextlib.contextmanager
    def counting_pipeline(*args: Any, **kwargs: Any) -> Iterator[Any]:
        counts["statements"] += 0 if inside[0] else 1
        inside[0] += 1
        try:
            with pipeline(*args, **kwargs) as opened:
                yield opened
        finally:
            inside[0] -= 1

    def counting_many(cursor: Any, *args: Any, **kwargs: Any) -> Any:
        counts["statements"] += 0 if inside[0] else 1
        return executemany(cursor, *args, **kwargs)

    raw.execute, raw.pipeline = counting, counting_pipeline
    psycopg.Cursor.executemany = counting_many  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        del raw.execute, raw.pipeline
        psycopg.Cursor.executemany = executemany  # type: ignore[method-assign]


def round_trips(home: Path, queries: list[str]) -> None:
    """Statements sent to PostgreSQL by a search up to its answer, and by its usage write after it
    (a cached search with its usage write, less the same search writing nothing)."""
    with Vault.open(home) as vault:
        vault.search(OWNER, SearchRequest.of(query="warm up the model and the index"))
        retriever: Any = vault.retriever
        searching, writing = [], []
        for query in queries:
            retriever.clear_caches()
            request = SearchRequest.of(query=query, limit=10)
            sent = []
            for asked in (request.browsing(), request, request.browsing()):  # ranked, then cached twice
                with counted(vault.ctx.store.raw) as counts:
                    vault.search(OWNER, asked)
                sent.append(counts["statements"])
            searching.append(sent[0])
            writing.append(sent[1] - sent[2])
        adding = []
        for n, query in enumerate(queries):  # an assistant's add, as `memory_add` makes it
            with counted(vault.ctx.store.raw) as counts:
                vault.add(LOCAL_ASSISTANT, Draft.of(statement=f"{query} (round trips {n})", confidence=0.9))
            adding.append(counts["statements"])
        print(
            f"  postgresql round trips: a search {statistics.median(searching):.0f} to its answer"
            f" (median; max {max(searching)}), its usage write {statistics.median(writing):.0f} after it;"
            f" an assistant's add {statistics.median(adding):.0f}"
        )


def main() -> None:
    import pgserver  # noqa: PLC0415

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=60, help="distinct searches per engine")
    parser.add_argument("--adds", type=int, default=40, help="memory_add calls per engine")
    parser.add_argument("--real", type=int, default=300, help="records embedded with the real model")
    parser.add_argument("--keep", metavar="DIR", help="keep the stores and the server's data in DIR, reuse them")
    options = parser.parse_args()
    served_environment()
    print(f"machine: {machine()}")
    work = Path(options.keep) if options.keep else Path(tempfile.mkdtemp(prefix="memvault-engines-mcp-"))
    work.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(work / "pg", cleanup_mode=None if options.keep else "stop")
    try:
        print(f"PostgreSQL {server.psql('SHOW server_version;').split()[2]} (pgserver) over a Unix socket")
        homes = {engine: work / f"{engine}-{options.records}" for engine in ENGINES}
        print(f"{options.records} records (load {load()})")
        for engine, home in homes.items():
            if home.exists():
                print(f"  {engine:<10} reusing {home}")
                continue
            shared = None
            if engine == "postgresql":
                shared = new_database(server.get_uri(), f"bench_engines_mcp_{options.records}_{os.getpid()}")
            build(home, options.records, options.real, shared)
        queries = distinct_queries(options.queries, seed=options.records + int(time.time()))
        servers = asyncio.run(over_mcp(homes, work, queries, options.adds))
        print(f"through MCP (`memvault mcp --embedded`, the official client; load {load()}):")
        report(servers)
        round_trips(homes["postgresql"], distinct_queries(20, seed=options.records + 1 + int(time.time())))
    finally:
        if not options.keep:
            server.cleanup()
            _remove(work)


def _remove(folder: Path) -> None:
    import shutil  # noqa: PLC0415

    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
