"""After a purge, a long-lived process keeps no copy of the purged record's words in its memory.

A server (the daemon, an MCP bridge) runs in a child process: tests/bench/bench_purge_memory.py
adds a record holding a made-up word, searches for it, purges it (itself, or from another
process as `memvault purge` does beside a daemon), searches for something else, and counts the
word in its own memory through /proc/self/mem. The word comes from a seed: this process never
holds it.

The child runs with C and Python allocators that overwrite what is freed (glibc's perturb byte,
no tcache, PYTHONMALLOC=malloc), so a copy found is one memvault still holds: a cache, a page of
the store, a scratch table. What a freed block keeps under the ordinary allocators until it is
used again is measured by the benchmark, not asserted here (docs/maintenance.md, "Process memory").
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from memvault.core.store.sqlcipher.connection import Connection
from memvault.core.vault import Vault

BENCH = Path(__file__).parents[1] / "bench" / "bench_purge_memory.py"
SCRUBBING_ALLOCATORS = {
    "PYTHONMALLOC": "malloc",
    "GLIBC_TUNABLES": "glibc.malloc.tcache_count=0:glibc.malloc.perturb=165",
}


def _glibc() -> bool:
    try:
        return bool(os.confstr("CS_GNU_LIBC_VERSION"))
    except (ValueError, OSError):  # another C library
        return False


LINUX_GLIBC = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not _glibc(),
    reason="counts copies through /proc/self/mem, with glibc's allocator",
)


def _counts(home: Path, *options: str) -> dict[str, dict[str, int]]:
    seed = random.SystemRandom().randrange(1 << 30)
    done = subprocess.run(
        [sys.executable, str(BENCH), "--home", str(home), "--seed", str(seed), "--ops", "0", "--json", *options],
        env={**os.environ, **SCRUBBING_ALLOCATORS},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    counts: dict[str, dict[str, int]] = json.loads(done.stdout)["counts"]
    return counts


def _copies(found: dict[str, int]) -> int:
    return found["word"] + found["lower"] + found["tail"]


@LINUX_GLIBC
def test_a_purge_in_the_serving_process_leaves_no_copy_of_its_words(home: Path) -> None:
    counts = _counts(home)
    assert counts["before"]["word"] > 0 and counts["before"]["lower"] > 0  # the count sees the copies in use
    assert _copies(counts["after_purge"]) == 0, counts
    assert _copies(counts["after_next_search"]) == 0, counts


@LINUX_GLIBC
def test_a_purge_from_another_process_is_forgotten_by_the_next_search(home: Path) -> None:
    counts = _counts(home, "--purge-elsewhere")
    assert counts["before"]["word"] > 0 and counts["before"]["lower"] > 0
    assert _copies(counts["after_next_search"]) == 0, counts


def _is_open(conn: Connection) -> bool:
    try:
        conn.execute("SELECT 1")
    except Exception:  # the driver's ProgrammingError: a closed connection
        return False
    return True


def test_a_connection_renewed_inside_a_snapshot_is_renewed_as_it_ends(vault: Vault) -> None:
    first = vault.ctx.store.raw
    with vault.ctx.reading():
        vault.ctx.renew_connection()
        assert vault.ctx.store.raw is first and _is_open(first)  # the snapshot reads on to its end
    second = vault.ctx.store.raw
    assert second is not first and not _is_open(first)
    with vault.ctx.transaction():
        vault.ctx.renew_connection()
    assert vault.ctx.store.raw is not second and not _is_open(second)
    with vault.ctx.reading() as conn:  # the new one is set up like any other
        assert conn.raw.execute("PRAGMA temp.secure_delete").fetchone()[0] == 1
        assert conn.raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
