"""Benchmark the vault as the CLI and the desktop use it: add, get, list and search on a fresh store.

    python tests/bench/bench_vault.py [--records 10000] [--searches 300] [--json]

A script, not a test: it makes a fresh encrypted store in a temp folder (never
$MEMVAULT_HOME), adds N generated fictional records over several domains as the
person, then times reads. It prints median and p95 latency (ms), throughput and
the store's size on disk (database + WAL), with the machine named.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# A store of its own, a passphrase of its own, and never the person's keyring.
os.environ.setdefault("MEMVAULT_PASSPHRASE", "fictional benchmark passphrase")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
os.environ.pop("MEMVAULT_WRITE_MODE", None)

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import ListRequest
from memvault.core.vocabulary.search_request import SearchRequest

PEOPLE = ("Ada", "Bram", "Chidi", "Dana", "Elif", "Femi", "Greta", "Hiro", "Ines", "Jonas", "Kaia", "Luca")
PLACES = ("the canal", "the old mill", "the market hall", "the north park", "the library", "the harbour", "the depot")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
THINGS = (
    "bicycle", "kettle", "sourdough", "violin", "garden shed", "laptop", "heat pump", "roof tiles", "canoe",
    "spreadsheet", "tomato seedlings", "night train", "pension plan", "flashcards", "database index", "bookshelf",
)  # fmt: skip
TOPICS = (
    "the billing pipeline", "the kitchen worktop", "the spring tour", "the choir concert", "the tax return",
    "the Lisbon trip", "the plant app", "the allotment", "the running plan", "the reading group",
)  # fmt: skip
TEMPLATES: dict[str, tuple[tuple[str, str], ...]] = {
    "work": (
        ("DECISION", "Decided with {person} that {topic} ships in {n} small steps"),
        ("CONSTRAINT", "{topic} may not run on {weekday}s before {hour}:00 (rule {n})"),
        ("NEXT_ACTION", "Ask {person} about the {thing} for {topic} by {weekday} (item {n})"),
        ("FAILED_APPROACH", "Retrying {topic} {n} times in a row did not fix the {thing}"),
    ),
    "home": (
        ("FACT", "The {thing} in the hallway was serviced by {person} on a {weekday} for {n} euros"),
        ("PREFERENCE", "Prefers the {thing} near {place} rather than in the cellar (option {n})"),
        ("NEXT_ACTION", "Measure the {thing} for {topic} before {weekday}, about {n} cm"),
    ),
    "health": (
        ("WORKFLOW", "Walks to {place} on {weekday}s for {n} minutes"),
        ("GOAL", "Run {n} km along {place} with {person} without stopping"),
        ("SUCCESSFUL_APPROACH", "Stretching for {n} minutes after the {thing} session helped"),
    ),
    "cooking": (
        ("SUCCESSFUL_APPROACH", "A {n}-hour proof makes the {thing} loaf rise better"),
        ("PREFERENCE", "Likes {thing} soup with {n} cloves of garlic"),
        ("FACT", "{person} brings {n} grams of {thing} from {place} on {weekday}s"),
    ),
    "travel": (
        ("DECISION", "Takes the night train to {place} for {topic} (trip {n})"),
        ("OPEN_QUESTION", "Is {place} worth a {n}-day detour on {topic}?"),
        ("FACT", "{person} recommended a guest house near {place} for {topic}, {n} euros a night"),
    ),
    "finances": (
        ("CONSTRAINT", "Spend at most {n}0 euros a month on the {thing} at {place}"),
        ("WORKFLOW", "Reviews {topic} on the first {weekday} of each month, in {n} minutes"),
        ("GOAL", "Put {n} euros more into savings for the {thing} on {weekday}s"),
    ),
    "learning": (
        ("DISCOVERY", "Learning {n} words a day about the {thing} sticks better with {person}"),
        ("NEXT_ACTION", "Read chapter {n} about {topic} before {weekday}"),
    ),
    "side-project": (
        ("DECISION", "The plant app stores the {thing} table in SQLite (schema {n})"),
        ("FAILED_APPROACH", "Caching the {thing} in memory broke {topic} after {n} hours"),
        ("OPEN_QUESTION", "Should {topic} send {n} reminders on {weekday} at {hour}:00?"),
    ),
}
QUERIES = (
    "what did we decide about the billing pipeline",
    "kitchen worktop",
    "night train trip",
    "sourdough loaf proof",
    "savings goal",
    "running plan walks",
    "plant app reminders",
    "who recommended a guest house",
    "database index",
    "tax return review",
    "what is due on Friday",
    "violin",
)


def generate(rng: random.Random, n: int) -> list[dict[str, Any]]:
    domains = list(TEMPLATES)
    records = []
    for i in range(n):
        domain = domains[i % len(domains)]
        type_, template = rng.choice(TEMPLATES[domain])
        statement = template.format(
            person=rng.choice(PEOPLE),
            place=rng.choice(PLACES),
            weekday=rng.choice(WEEKDAYS),
            thing=rng.choice(THINGS),
            topic=rng.choice(TOPICS),
            n=rng.randint(2, 400),
            hour=rng.randint(7, 20),
        )
        record: dict[str, Any] = {
            "statement": statement,
            "type": type_,
            "domain": domain,
            "importance": round(rng.uniform(0.2, 0.9), 2),
            "tags": [f"bench-{i % 50}"],
        }
        if type_ == "NEXT_ACTION":
            record["due_at"] = f"2027-0{1 + i % 9}-1{i % 10}"
        records.append(record)
    return records


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = fn()
    return (time.perf_counter() - started) * 1000, result


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"n": len(samples), "median_ms": round(statistics.median(samples), 3), "p95_ms": round(p95, 3)}


def cli_runs(home: Path, memory_id: str, runs: int) -> list[float]:
    """Wall time of whole `memvault --json get ID` processes: start-up, unlocking the key, the read."""
    command = [sys.executable, "-m", "memvault.desktop.cli", "--home", str(home), "--json", "get", memory_id]
    samples = []
    for _ in range(runs):
        ms, done = timed(lambda: subprocess.run(command, capture_output=True, timeout=120, check=False))
        if done.returncode != 0:
            raise SystemExit(f"memvault get failed: {done.stderr.decode(errors='replace')[-300:]}")
        samples.append(ms)
    return samples


def run(args: argparse.Namespace, home: Path) -> dict[str, Any]:
    rng = random.Random(args.seed)  # fictional data, not security
    records = generate(rng, args.records)
    with Vault.open(home, create=True) as vault:
        add_ms, ids, outcomes = [], [], {}
        started = time.perf_counter()
        for i, record in enumerate(records, start=1):
            ms, result = timed(lambda r=record: vault.add(OWNER, Draft.of(**r)))
            add_ms.append(ms)
            outcomes[result["outcome"]] = outcomes.get(result["outcome"], 0) + 1
            if result["outcome"] == "added":
                ids.append(result["id"])
            if i % 1000 == 0:
                print(f"added {i}/{len(records)}", file=sys.stderr)
        add_seconds = time.perf_counter() - started
        get_ms = [timed(lambda: vault.get(OWNER, rng.choice(ids)))[0] for _ in range(args.gets)]
        list_ms = [
            timed(lambda: vault.list_memories(OWNER, ListRequest.of(domain=rng.choice(list(TEMPLATES)), limit=50)))[0]
            for _ in range(args.lists)
        ]
        vault.search(OWNER, SearchRequest.of(query="warm up the retriever"))
        search_ms, hits = [], 0
        for i in range(args.searches):
            query = QUERIES[i % len(QUERIES)]
            ms, found = timed(lambda q=query: vault.search(OWNER, SearchRequest.of(query=q)))
            search_ms.append(ms)
            hits += len(found["results"])
        embeddings = vault.status(OWNER)["embeddings"]
        store = vault.paths.store
        wal = store.with_name(store.name + "-wal")
        disk = {"db_bytes": store.stat().st_size, "wal_bytes": wal.stat().st_size if wal.exists() else 0}
    cli_ms = cli_runs(home, ids[0], args.cli_runs) if args.cli_runs else []
    return {
        "machine": {
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
        },
        "records": args.records,
        "outcomes": outcomes,
        "embeddings": embeddings,
        "add": {**summary(add_ms), "per_second": round(len(records) / add_seconds, 1)},
        "get": summary(get_ms),
        "list": summary(list_ms),
        "search": {**summary(search_ms), "mean_results": round(hits / max(1, args.searches), 2)},
        "cli_get": summary(cli_ms) if cli_ms else None,
        "disk": disk,  # while open, as a running app holds it
    }


def text(report: dict[str, Any]) -> str:
    m, d = report["machine"], report["disk"]
    total = d["db_bytes"] + d["wal_bytes"]
    lines = [
        f"machine: {m['platform']}, {m['processor']}, {m['cpu_count']} CPUs, Python {m['python']},"
        f" load average at the end {' '.join(map(str, m['load_average']))}",
        f"records: {report['records']} ({', '.join(f'{k} {v}' for k, v in report['outcomes'].items())}),"
        f" embeddings: {report['embeddings']}",
        f"{'operation':<8} {'n':>6} {'median ms':>10} {'p95 ms':>9}",
    ]
    for name in ("add", "get", "list", "search"):
        row = report[name]
        lines.append(f"{name:<8} {row['n']:>6} {row['median_ms']:>10.3f} {row['p95_ms']:>9.3f}")
    if report["cli_get"]:
        row = report["cli_get"]
        lines.append(f"{'cli get':<8} {row['n']:>6} {row['median_ms']:>10.3f} {row['p95_ms']:>9.3f}  (a whole process)")
    lines.append(f"add throughput: {report['add']['per_second']} records/s")
    lines.append(f"search: {report['search']['mean_results']} results per query on average")
    lines.append(
        f"disk: {total / 1e6:.1f} MB (db {d['db_bytes'] / 1e6:.1f} MB + wal {d['wal_bytes'] / 1e6:.1f} MB),"
        f" {total / max(1, report['records']):.0f} bytes per record"
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--gets", type=int, default=1000)
    parser.add_argument("--lists", type=int, default=200)
    parser.add_argument("--searches", type=int, default=300)
    parser.add_argument("--cli-runs", type=int, default=5, help="whole `memvault get` processes to time (0: none)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--keep", action="store_true", help="keep the temp store and print where it is")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="memvault-bench-"))
    try:
        report = run(args, folder / "store")
    finally:
        if args.keep:
            print(f"store kept in {folder / 'store'}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(report, indent=2) if args.json else text(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
