"""The two store engines side by side on LoCoMo's dev split, in one run: the same turns added through
`Vault` to a SQLCipher store and to a PostgreSQL store (pgserver: PostgreSQL 16 + pgvector, started
here), the same questions searched, recall@5/@10 (adversarial questions left out, as in
tests/retrieval/eval_retrieval.py) and per-search / per-add wall time medians.

    .venv/bin/python tests/bench/bench_engines.py [--convs conv-26,conv-42] [--limit-questions N]

A script, not a test. Embeddings on (the product default); the search deadline lifted so that a
loaded machine does not cut a stage short. The machine is printed.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "retrieval"))
sys.path.insert(0, str(HERE))
os.environ.setdefault("MEMVAULT_PASSPHRASE", "bench (fictional)")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"

import baselines as bl  # noqa: E402
import locomo  # noqa: E402
from benchkit import new_database  # noqa: E402

from memvault.core.vault import Vault  # noqa: E402
from memvault.core.vocabulary.clock import SystemClock  # noqa: E402
from memvault.core.vocabulary.drafts import Draft  # noqa: E402
from memvault.core.vocabulary.model import OWNER  # noqa: E402
from memvault.core.vocabulary.search_request import SearchRequest  # noqa: E402

NO_DEADLINE_MS = 10_000


def _run(vault: Vault, conversation: locomo.Conversation, limit: int | None) -> dict[str, list[float]]:
    """Recall@5 and @10 per answerable question, ms per search and per add."""
    vault.set_setting(OWNER, "search_deadline_ms", NO_DEADLINE_MS)
    adds = []
    for turn in conversation.turns:
        started = time.perf_counter()
        vault.add(OWNER, Draft.of(**locomo.add_args(turn)))
        adds.append((time.perf_counter() - started) * 1000)
    r5, r10, searches = [], [], []
    for question in conversation.questions[:limit]:
        started = time.perf_counter()
        answer = vault.search(OWNER, SearchRequest.of(query=question.text, limit=10, depth="deep"))
        searches.append((time.perf_counter() - started) * 1000)
        if question.category == locomo.ADVERSARIAL:
            continue
        found = [hit.get("source_reference") or "" for hit in answer["results"]]
        r5.append(bl.recall_at(found, set(question.evidence), 5))
        r10.append(bl.recall_at(found, set(question.evidence), 10))
    return {"r5": r5, "r10": r10, "search": searches, "add": adds}


def main() -> None:
    import pgserver  # noqa: PLC0415

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--convs", help="conversation ids, comma separated (default: all)")
    parser.add_argument("--limit-questions", type=int)
    args = parser.parse_args()
    folder = locomo.data_dir()
    if folder is None:
        raise SystemExit("LoCoMo dev split not found (MEMVAULT_LOCOMO or ../shared/data/locomo-dev)")
    wanted = set(args.convs.split(",")) if args.convs else None
    conversations = locomo.load(folder, wanted)
    machine = platform.processor() or platform.machine()
    print(f"machine: {machine}, {os.cpu_count()} cores, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory(prefix="memvault-engines-") as tmp:
        server = pgserver.get_server(Path(tmp) / "pg", cleanup_mode="stop")
        try:
            opens: dict[str, Callable[[Path], Vault]] = {
                "sqlcipher": lambda home: Vault.open(home, create=True, clock=SystemClock(), scrypt_n=2**12),
                "postgresql": lambda home: Vault.open(
                    home, create=True, clock=SystemClock(), scrypt_n=2**12, shared_store=new_database(server.get_uri())
                ),
            }
            results: dict[str, dict[str, list[float]]] = {
                name: {"r5": [], "r10": [], "search": [], "add": []} for name in opens
            }
            for conversation in conversations:
                for name, open_vault in opens.items():
                    home = Path(tmp) / f"{name}-{conversation.sample_id}"
                    vault = open_vault(home)
                    try:
                        for figure, values in _run(vault, conversation, args.limit_questions).items():
                            results[name][figure] += values
                    finally:
                        vault.close()
                print(f"  {conversation.sample_id}: done", flush=True)
        finally:
            server.cleanup()
    for name, got in results.items():
        print(
            f"{name:<11} R@5 {statistics.mean(got['r5']):.3f}  R@10 {statistics.mean(got['r10']):.3f}"
            f"  ({len(got['r10'])} questions)   search p50 {statistics.median(got['search']):.1f} ms"
            f"   add p50 {statistics.median(got['add']):.1f} ms"
        )


if __name__ == "__main__":
    main()
