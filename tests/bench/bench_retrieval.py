"""Benchmark the retrieval brain: search latency, embedding throughput, packet size, memory, quality.

    python tests/bench/bench_retrieval.py [--sizes 1000,10000,100000] [--real 5000] [--json]

A script, not a test. For each size it makes a fresh encrypted store in a temp folder, loads
the evaluation set (tests/retrieval/eval_set.json, through Vault like a person would), then
bulk-writes generated fictional records (through `commit_draft`, in large transactions) up to
the size. Up to `--real` bulk records are embedded with the real model, in batches; beyond
that, vectors are SYNTHESISED (a real bulk vector plus noise, normalised), because embedding
100k statements takes ~6 minutes of one core on this machine class. The index, the SQL and
the ranking see the same shapes either way; only the semantic neighbourhoods are artificial.

With --mcp it also times `memory_search` (distinct queries, so no cache hits) and `memory_add`
(embeddings on) through `memvault mcp --embedded` driven by the official MCP client.
It prints, per size: search latency p50/p95 in a warm process (hybrid and lexical-only, the
ranking cache cleared before every search, so these are uncached figures) in wall-clock and
process-CPU milliseconds (the CPU figure is what the code costs when the machine is shared),
plain FTS5 bm25 latency as the baseline and the ratios, packet tokens per query, process RSS,
embedding throughput (one add with its embedding, and batch backfill), and recall@10 / MRR of
the hybrid search and of bm25 over the evaluation queries at that size.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("MEMVAULT_PASSPHRASE", "fictional benchmark passphrase")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
os.environ.pop("MEMVAULT_WRITE_MODE", None)
os.environ.pop("MEMVAULT_EMBEDDINGS", None)
sys.path.insert(0, str(Path(__file__).parents[1] / "retrieval"))

import evalkit as ek
import numpy as np

from memvault.core.retrieval.embeddings import MODEL_ID, shared_embedder
from memvault.core.retrieval.query import query_terms
from memvault.core.retrieval.vectors import backfill, to_blob
from memvault.core.store.sqlcipher import search as search_sql
from memvault.core.store.sqlcipher import vector_rows as vector_sql
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, MemoryType, Scope
from memvault.core.vocabulary.search_request import SearchRequest, parse_search
from memvault.core.writer.writes import commit_draft

WORDS = (
    "invoice garden kettle pipeline choir tomato lisbon ferry budget violin sourdough heat pump bicycle canal "
    "library harbour tax pension flashcards index bookshelf roof tiles canoe night train spreadsheet allotment "
    "meeting deadline review contract plumber tiles grout solar panel insurance renewal vaccine appointment "
    "recipe lentils risotto ramen climbing route guitar chord novel chapter lecture seminar thesis draft"
).split()
DOMAINS = ("work", "home", "health", "food", "travel", "finance", "family", "hobbies", "learning", "software")
TYPES = (MemoryType.FACT, MemoryType.PREFERENCE, MemoryType.DECISION, MemoryType.NEXT_ACTION, MemoryType.WORKFLOW)
NAMES = ("Ada", "Bram", "Chidi", "Dana", "Elif", "Femi", "Greta", "Hiro", "Ines", "Jonas", "Kaia", "Luca")


def _statement(rng: random.Random, n: int) -> str:
    words = rng.sample(WORDS, 5)
    return (
        f"{rng.choice(NAMES)} mentioned the {words[0]} and the {words[1]} near the {words[2]};"
        f" follow up on the {words[3]} {words[4]} (note {n})"
    )


def bulk_write(vault: Vault, count: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    batch = 2000
    for start in range(0, count, batch):
        with vault.ctx.transaction() as conn:
            now = vault.ctx.now()
            for n in range(start, min(count, start + batch)):
                draft = Draft(
                    statement=_statement(rng, n),
                    type=rng.choice(TYPES),
                    domain=rng.choice(DOMAINS),
                    importance=round(rng.uniform(0.2, 0.7), 2),
                    access_scope=Scope.REMOTE_ALLOWED if rng.random() < 0.3 else Scope.LOCAL_ONLY,
                )
                commit_draft(conn, OWNER, draft, None, now)


def synthesise_vectors(vault: Vault, seed: int = 11) -> int:
    """Vectors for every record still without one: a random real vector plus noise, normalised."""
    rng = np.random.default_rng(seed)
    with vault.ctx.reading() as conn:  # the store's repositories: any engine
        real = [np.frombuffer(blob, dtype="<f4") for _, _, blob in conn.vectors.since(MODEL_ID, 0, 5000)]
    base = np.vstack(real)
    done = 0
    while True:
        with vault.ctx.reading() as conn:
            missing = conn.vectors.missing(MODEL_ID, 0, 5000)
        if not missing:
            return done
        picks = base[rng.integers(0, len(base), len(missing))] + rng.normal(0, 0.04, (len(missing), base.shape[1]))
        picks /= np.linalg.norm(picks, axis=1, keepdims=True)
        with vault.ctx.transaction() as conn:
            conn.vectors.put(MODEL_ID, [(m[1], to_blob(v)) for m, v in zip(missing, picks, strict=True)])
        done += len(missing)


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []:
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[max(0, int(0.95 * len(ordered)) - 1)], 2),
    }


def time_searches(vault: Vault, queries: list[dict[str, Any]]) -> dict[str, Any]:
    retriever: Any = vault.retriever
    walls, cpus, tokens = [], [], []
    for query in queries:
        retriever.clear_caches()
        wall, cpu = time.perf_counter(), time.process_time()
        answer = vault.search(ek.caller_of(query), SearchRequest.of(**ek.search_args(query)))
        cpus.append((time.process_time() - cpu) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
        tokens.append(answer.get("budget", {}).get("tokens", 0))
    return {"wall_ms": percentiles(walls), "cpu_ms": percentiles(cpus), "packet_tokens_mean": statistics.mean(tokens)}


def time_bm25(vault: Vault, queries: list[dict[str, Any]]) -> dict[str, Any]:
    walls, cpus = [], []
    with vault.ctx.reading() as conn:
        for query in queries:
            wall, cpu = time.perf_counter(), time.process_time()
            words = query_terms(query["query"])
            if words:
                search_sql.plain_bm25(conn.raw, ek.caller_of(query), words, parse_search(ek.search_args(query)), 10)
            cpus.append((time.process_time() - cpu) * 1000)
            walls.append((time.perf_counter() - wall) * 1000)
    return {"wall_ms": percentiles(walls), "cpu_ms": percentiles(cpus)}


def embedding_throughput(vault: Vault, n: int = 40) -> dict[str, float]:
    rng = random.Random(3)
    started = time.perf_counter()
    for i in range(n):
        vault.add(OWNER, Draft.of(statement=_statement(rng, 10_000_000 + i), domain="work"))
    per_add = (time.perf_counter() - started) * 1000 / n
    vault.set_setting(OWNER, "embeddings", "off")
    with vault.ctx.reading() as conn:
        before = vector_sql.max_memory_rowid(conn.raw)
    started = time.perf_counter()
    for i in range(n):
        vault.add(OWNER, Draft.of(statement=_statement(rng, 20_000_000 + i), domain="work"))
    per_add_off = (time.perf_counter() - started) * 1000 / n
    vault.set_setting(OWNER, "embeddings", "local")
    started, cpu = time.perf_counter(), time.process_time()
    done, _ = backfill(vault.ctx, shared_embedder(), after=before)
    per_batch_record = (time.perf_counter() - started) * 1000 / max(done, 1)
    per_batch_cpu = (time.process_time() - cpu) * 1000 / max(done, 1)
    return {
        "add_with_embedding_ms": round(per_add, 2),
        "add_embeddings_off_ms": round(per_add_off, 2),
        "batch_embed_ms_per_record": round(per_batch_record, 2),
        "batch_embed_cpu_ms_per_record": round(per_batch_cpu, 2),
        "batch_records_per_s": round(1000 / per_batch_record, 1),
    }


def compare_sqlite_vec(location: str, sizes: list[int]) -> list[dict[str, Any]]:
    """numpy exact search against sqlite-vec's vec0 (k=60, cosine) in an encrypted store.

    sqlite-vec is not a dependency: install it somewhere apart (`pip install --target DIR
    sqlite-vec==0.1.9`) and pass DIR. Random unit vectors; both return the same top 10.
    """
    sys.path.insert(0, location)
    import sqlcipher3  # noqa: PLC0415
    import sqlite_vec  # noqa: PLC0415

    from memvault.core.retrieval.vectors import VectorIndex  # noqa: PLC0415

    rng = np.random.default_rng(1)
    out = []
    for n in sizes:
        rows = rng.normal(size=(n, 384)).astype("<f4")
        rows /= np.linalg.norm(rows, axis=1, keepdims=True)
        queries = rows[rng.integers(0, n, 30)] + 0.01
        folder = Path(tempfile.mkdtemp(prefix="memvault-bench-vec-"))
        conn = sqlcipher3.connect(str(folder / "v.db"))
        conn.execute("PRAGMA key = \"x'" + "11" * 32 + "'\"")
        conn.enable_load_extension(True)
        conn.load_extension(sqlite_vec.loadable_path())
        conn.enable_load_extension(False)
        conn.execute("CREATE VIRTUAL TABLE v USING vec0(embedding float[384] distance_metric=cosine)")
        conn.executemany(
            "INSERT INTO v(rowid, embedding) VALUES (?, ?)", [(i + 1, r.tobytes()) for i, r in enumerate(rows)]
        )
        conn.commit()
        index = VectorIndex("bench", 384)
        index._append([(i + 1, f"m{i}", r.tobytes()) for i, r in enumerate(rows)])

        def vec0(query: Any, db: Any = conn) -> Any:
            sql = "SELECT rowid FROM v WHERE embedding MATCH ? AND k = 60"
            return db.execute(sql, (query.astype("<f4").tobytes(),)).fetchall()

        result: dict[str, Any] = {"vectors": n}
        for label, search in (("numpy", lambda query, i=index: i.search(query, 60)), ("sqlite_vec", vec0)):
            search(queries[0])
            wall, cpu = time.perf_counter(), time.process_time()
            for query in queries:
                search(query)
            result[label] = {
                "wall_ms": round((time.perf_counter() - wall) * 1000 / len(queries), 2),
                "cpu_ms": round((time.process_time() - cpu) * 1000 / len(queries), 2),
            }
        conn.close()
        shutil.rmtree(folder, ignore_errors=True)
        out.append(result)
    return out


async def _mcp_session(home: Path, queries: list[dict[str, Any]], adds: int) -> dict[str, Any]:
    from mcp import ClientSession, StdioServerParameters  # noqa: PLC0415 - only --mcp pays for the SDK
    from mcp.client.stdio import stdio_client  # noqa: PLC0415

    command = str(Path(sys.executable).with_name("memvault"))
    params = StdioServerParameters(
        command=command, args=["mcp", "--embedded"], env={**os.environ, "MEMVAULT_HOME": str(home)}
    )
    rng = random.Random(9)
    with open(os.devnull, "w") as err:
        async with stdio_client(params, errlog=err) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("memory_search", {"query": "warm up the index and the model", "limit": 10})
            searches = []
            for query in queries:  # distinct texts: neither the ranking cache nor the request vectors repeat
                started = time.perf_counter()
                await session.call_tool("memory_search", {"query": query["query"], "limit": 10})
                searches.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            for i in range(adds):
                statement = _statement(rng, 30_000_000 + i)
                await session.call_tool("memory_add", {"statement": statement, "domain": "work", "confidence": 0.9})
            add_ms = (time.perf_counter() - started) * 1000 / max(adds, 1)
    return {
        "search_wall_ms": percentiles(searches),
        "add_with_embedding_ms": round(add_ms, 2),
        "searches": len(searches),
    }


def time_mcp(home: Path, queries: list[dict[str, Any]], adds: int = 40) -> dict[str, Any]:
    """memory_search and memory_add through `memvault mcp --embedded` and the official MCP client."""
    with Vault.open(home) as vault:  # the person lets the assistant's confident writes commit
        vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")
    return asyncio.run(_mcp_session(home, queries, adds))


def rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def run_size(size: int, real: int, data: dict[str, Any], mcp: bool = False) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="memvault-bench-retrieval-"))
    try:
        vault, _, ids = ek.open_eval_vault(folder / "store", True, data)
        bulk = max(0, size - len(data["memories"]))
        started = time.perf_counter()
        bulk_write(vault, bulk)
        write_s = time.perf_counter() - started
        started = time.perf_counter()
        embedded, _ = backfill(vault.ctx, shared_embedder(), limit=real)
        embed_s = time.perf_counter() - started
        synthetic = synthesise_vectors(vault)
        answerable = [q for q in data["queries"] if q["relevant"]]
        vault.search(
            OWNER, SearchRequest.of(query="warm up the index")
        )  # load the model and the matrix: a warm process
        hybrid = time_searches(vault, answerable)
        quality = ek.score(ek.run_vault(vault, data), ids)
        bm25_quality = ek.score(ek.run_bm25(vault, data), ids)
        bm25 = time_bm25(vault, answerable)
        vault.set_setting(OWNER, "embeddings", "off")
        lexical = time_searches(vault, answerable)
        vault.set_setting(OWNER, "embeddings", "local")
        throughput = embedding_throughput(vault)
        vault.close()
        over_mcp = time_mcp(folder / "store", [q for q in data["queries"] if q["kind"] != "skip"]) if mcp else None
        return {
            "mcp": over_mcp,
            "records": size,
            "bulk_write_s": round(write_s, 1),
            "real_embedded": embedded + len(data["memories"]),
            "real_embed_s": round(embed_s, 1),
            "synthetic_vectors": synthetic,
            "hybrid": hybrid,
            "lexical_only": lexical,
            "bm25": bm25,
            "ratio_p95_cpu": {
                "hybrid_vs_bm25": round(hybrid["cpu_ms"]["p95"] / max(bm25["cpu_ms"]["p95"], 0.01), 1),
                "lexical_vs_bm25": round(lexical["cpu_ms"]["p95"] / max(bm25["cpu_ms"]["p95"], 0.01), 1),
            },
            "quality": {"hybrid": quality.as_dict(), "bm25": bm25_quality.as_dict()},
            "embedding": throughput,
            "rss_mb": rss_mb(),
            "store_mb": round(sum(f.stat().st_size for f in (folder / "store").glob("*.db*")) / 2**20, 1),
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--real", type=int, default=5000, help="bulk records embedded with the real model")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--mcp", action="store_true", help="also time memory_search / memory_add over MCP")
    parser.add_argument("--compare-sqlite-vec", metavar="DIR", help="also time sqlite-vec installed in DIR")
    options = parser.parse_args()
    if options.compare_sqlite_vec:
        sizes = [int(s) for s in options.sizes.split(",")]
        print(json.dumps(compare_sqlite_vec(options.compare_sqlite_vec, sizes), indent=1))
        return
    data = ek.load_set()
    results = []
    for size in (int(s) for s in options.sizes.split(",")):
        result = run_size(size, options.real, data, options.mcp)
        results.append(result)
        if not options.json:
            print(json.dumps(result, indent=1), flush=True)
    machine = {
        "cpu": cpu_model(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
    }
    if options.json:
        print(json.dumps({"machine": machine, "results": results}, indent=1))
    else:
        print("machine:", machine)


if __name__ == "__main__":
    main()
