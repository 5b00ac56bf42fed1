"""Benchmark backup, restore and purge on a store of N records.

    python tests/bench/bench_backup.py [--records 10000] [--repeat 3] [--no-vectors] [--json]

A script, not a test: it makes a fresh encrypted store in a temp folder (never
$MEMVAULT_HOME), adds N generated fictional records as the person (embeddings
off, so the figure does not include the model; unless --no-vectors, each record
then gets a 384-d float32 vector as the embedding model would store, so the
store has its real size), and times:
- backup: an encrypted sqlcipher_export into backups/ (median of --repeat runs)
- restore: verify + keep the current store + atomic swap (median of --repeat runs)
- purge: request + confirm of one record, with --repeat backups to rewrite
It prints the times and the sizes of the store and of one backup.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("MEMVAULT_PASSPHRASE", "fictional benchmark passphrase")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
os.environ["MEMVAULT_EMBEDDINGS"] = "off"
os.environ.pop("MEMVAULT_WRITE_MODE", None)

import numpy as np

from memvault.core.security import keys
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import ListRequest, PurgeRequest

WORDS = (
    "kettle canal violin harbour sourdough allotment bicycle library ferry lantern orchard tram "
    "spreadsheet cedar choir pension kayak meadow quarry glacier"
).split()


def _fill(vault: Vault, records: int, vectors: bool) -> None:
    rng = random.Random(7)
    for n in range(records):
        words = " ".join(rng.choice(WORDS) for _ in range(12))
        vault.add(OWNER, Draft.of(statement=f"Fictional note {n}: {words}", tags=[f"t{n % 40}"]))
    if vectors:
        gen = np.random.default_rng(7)
        with vault.ctx.transaction() as conn:
            ids = [row[0] for row in conn.raw.execute("SELECT id FROM memories")]
            for memory_id in ids:
                vec = gen.standard_normal(384).astype(np.float32)
                vec /= np.linalg.norm(vec)
                conn.raw.execute(
                    "INSERT OR REPLACE INTO memory_vectors (memory_id, model, vector) VALUES (?, 'bench-random', ?)",
                    (memory_id, vec.tobytes()),
                )


def _timed(action: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    result = action()
    return (time.perf_counter() - started) * 1000, result


def run(records: int, repeat: int, vectors: bool) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="memvault-bench-backup-"))
    home = folder / "home"
    try:
        started = time.perf_counter()
        with Vault.open(home, create=True) as vault:
            _fill(vault, records, vectors)
            fill_s = time.perf_counter() - started
            vault.ctx.store.raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            store_bytes = (home / "memvault.db").stat().st_size
            backup_ms, backups = [], []
            for _ in range(repeat):
                ms, info = _timed(lambda: vault.backup(OWNER))
                backup_ms.append(ms)
                backups.append(info)
        unlock_ms = _timed(lambda: keys.load_key(home / "memvault.key.json"))[0]
        restore_ms = [_timed(lambda: Vault.restore_backup(backups[0]["path"], home))[0] for _ in range(repeat)]
        with Vault.open(home) as vault:
            target = vault.list_memories(OWNER, ListRequest.of(limit=1))["items"][0]["id"]
            request = vault.request_purge(OWNER, PurgeRequest.of(id=target, reason="other"))["request_id"]
            known = len(vault.list_backups(OWNER))
            purge_ms, report = _timed(lambda: vault.confirm_purge(OWNER, request))
        return {
            "machine": f"{platform.machine()} {platform.processor() or ''} {os.cpu_count()} cpu".strip(),
            "python": sys.version.split()[0],
            "records": records,
            "vectors": vectors,
            "fill_seconds": round(fill_s, 1),
            "store_bytes": store_bytes,
            "backup_bytes": backups[0]["bytes"],
            "backup_ms_median": round(statistics.median(backup_ms), 1),
            "backup_ms_all": [round(x, 1) for x in backup_ms],
            "restore_ms_median": round(statistics.median(restore_ms), 1),
            "restore_ms_all": [round(x, 1) for x in restore_ms],
            "key_unlock_ms": round(unlock_ms, 1),
            "purge_ms": round(purge_ms, 1),
            "purge_backups_rewritten": len(report["backups"]["rewritten"]),
            "backups_known_at_purge": known,
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-vectors", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.records, args.repeat, not args.no_vectors)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        mb = 1024 * 1024
        print(f"{result['records']} records (vectors: {result['vectors']}) on {result['machine']}")
        print(f"store {result['store_bytes'] / mb:.1f} MB, one backup {result['backup_bytes'] / mb:.1f} MB")
        print(f"backup  median {result['backup_ms_median']} ms  {result['backup_ms_all']}")
        print(
            f"restore median {result['restore_ms_median']} ms  {result['restore_ms_all']} "
            f"(of which unlocking the key with the passphrase: {result['key_unlock_ms']} ms)"
        )
        print(
            f"purge   {result['purge_ms']} ms (one record; {result['purge_backups_rewritten']} backups rewritten, "
            "store VACUUMed)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
