"""Benchmark the domain brain: routing latency, and discovery on the shipped demo set.

    python tests/bench/bench_domains.py [--domains 20] [--records 500] [--json]

A script, not a test: fresh encrypted stores in a temp folder (never $MEMVAULT_HOME).

1. Routing: DOMAINS domains with keywords and random unit centroids, RECORDS records
   spread over them; times `route` warm (cached) and right after a write (a cache
   rebuild), for a local and a remote caller, with a 384-d request vector.
2. Discovery: the demo set (resources/demo, 9 hand-made domains) written without its
   domains, then `discover_domains(dry_run=False)`: time, regions, purity and adjusted
   Rand index against the hand-made domains. Uses the local embedding model when it is
   installed (the store embeds what it stores), else words alone.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import Counter
from math import comb
from pathlib import Path
from typing import Any

os.environ.setdefault("MEMVAULT_PASSPHRASE", "fictional benchmark passphrase")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"

import numpy as np

from memvault.core.retrieval.router import route
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Caller, Surface

REPO = Path(__file__).resolve().parents[2]
REMOTE = Caller(principal="bench-remote", surface=Surface.REMOTE)


def _store(folder: str, name: str) -> Vault:
    return Vault.open(Path(folder) / name, create=True, scrypt_n=2**12)


def bench_routing(folder: str, domains: int, records: int) -> dict[str, Any]:
    vault = _store(folder, "routing")
    vault.set_setting(OWNER, "embeddings", "off")
    rng = np.random.default_rng(1)
    for i in range(domains):
        centroid = rng.normal(size=384).astype(np.float32)
        vault.ctx.store.raw.execute(
            "INSERT INTO domains (name, keywords, centroid, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
            (
                f"region-{i}",
                json.dumps([f"topic{i}", f"subject{i}", f"theme{i}"]),
                (centroid / np.linalg.norm(centroid)).tobytes(),
                "2026-01-01T00:00:00Z",
                "2026-01-01T00:00:00Z",
            ),
        )
    for j in range(records):
        scope = "remote_allowed" if j % 2 else "local_only"
        vault.add(
            OWNER,
            Draft.of(
                statement=f"Note {j} about topic{j % domains}", domain=f"region-{j % domains}", access_scope=scope
            ),
        )
    vector = rng.normal(size=384).astype(np.float32)
    vector /= np.linalg.norm(vector)
    query = "what about topic7 and theme12 lately?"
    result: dict[str, Any] = {"domains": domains, "records": records}
    for who, caller in (("local", OWNER), ("remote", REMOTE)):
        cold, warm = [], []
        for n in range(20):
            vault.add(OWNER, Draft.of(statement=f"Another note {n} {who} about topic3", domain="region-3"))
            with vault.ctx.reading() as conn:
                started = time.perf_counter()
                route(conn, caller, query, vector)
                cold.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                for _ in range(50):
                    route(conn, caller, query, vector)
                warm.append((time.perf_counter() - started) * 1000 / 50)
        result[who] = {
            "warm_ms": round(statistics.median(warm), 3),
            "after_write_ms": round(statistics.median(cold), 2),
        }
    vault.close()
    return result


def _adjusted_rand(truth: list[str], found: list[str]) -> float:
    pairs = Counter(zip(truth, found, strict=True))
    same = sum(comb(c, 2) for c in pairs.values())
    a = sum(comb(c, 2) for c in Counter(truth).values())
    b = sum(comb(c, 2) for c in Counter(found).values())
    expected = a * b / comb(len(truth), 2)
    return (same - expected) / ((a + b) / 2 - expected)


def bench_discovery(folder: str) -> dict[str, Any]:
    vault = _store(folder, "discovery")
    truth: dict[str, str] = {}
    for path in sorted((REPO / "resources" / "demo").glob("*.jsonl")):
        domain = None
        for line in path.read_text().splitlines():
            item = json.loads(line)
            if item.get("op") == "defaults":
                domain = item["domain"]
            elif "statement" in item:
                answer = vault.add(OWNER, Draft.of(statement=item["statement"], tags=item.get("tags", [])))
                if answer["outcome"] == "added" and domain:
                    truth[answer["id"]] = domain
    started = time.perf_counter()
    plan = vault.discover_domains(OWNER, dry_run=False)
    seconds = time.perf_counter() - started
    placed = dict(vault.ctx.store.raw.execute("SELECT id, domain FROM memories").fetchall())
    ids = sorted(truth)
    by_region: dict[str, Counter[str]] = {}
    for memory_id in ids:
        by_region.setdefault(placed[memory_id], Counter())[truth[memory_id]] += 1
    purity = sum(c.most_common(1)[0][1] for c in by_region.values()) / len(ids)
    vault.close()
    return {
        "records": len(ids),
        "method": plan["method"],
        "seconds": round(seconds, 2),
        "regions": [r["name"] for r in plan["regions"]],
        "purity": round(purity, 3),
        "adjusted_rand": round(_adjusted_rand([truth[i] for i in ids], [placed[i] for i in ids]), 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", type=int, default=20)
    parser.add_argument("--records", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memvault-bench-domains-") as folder:
        report = {
            "machine": f"{platform.machine()} {platform.processor() or ''}".strip() + f", {os.cpu_count()} cpus",
            "routing": bench_routing(folder, args.domains, args.records),
            "discovery": bench_discovery(folder),
        }
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
    else:
        routing, found = report["routing"], report["discovery"]
        print(f"machine: {report['machine']}")
        print(f"routing, {routing['domains']} domains, {routing['records']} records:")
        for who in ("local", "remote"):
            print(f"  {who}: {routing[who]['warm_ms']} ms warm, {routing[who]['after_write_ms']} ms after a write")
        print(
            f"discovery on the demo set ({found['records']} records, {found['method']}): {found['seconds']} s, "
            f"{len(found['regions'])} regions, purity {found['purity']}, adjusted Rand {found['adjusted_rand']}"
        )
        print("  regions: " + ", ".join(found["regions"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
