"""Latency of the change feed: a commit in one process -> the listener's callback in another.

    nice -n 10 .venv/bin/python tests/bench/bench_changes.py [--samples 50] [--interval 0.1]

Two ways, on a fresh store made for the run (nothing of the person's is touched):
  (a) file    no daemon: the writer rewrites the change signal, watchdog (inotify) wakes the
              listener, which reads `changes_since` from its own connection;
  (b) daemon  a running `memvault daemon`: its watcher wakes, it reads the changes and pushes
              them over its socket to the listener (which reads no store).
A writer process adds `--samples` records, one every `--interval` seconds (embeddings off).
Latency = arrival time of the change in this process - the change's event time, which the
writer stamps inside its transaction just before committing (so it is an upper bound: it
includes the rest of that transaction). Both clocks are the same machine's wall clock.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

from memvault.core.operations.changes import ChangeBatch, ChangeKind
from memvault.core.vault import Vault
from memvault.desktop.change_listener import ChangeListener
from memvault.mcp_bridge import relay

MEMVAULT = str(Path(sys.executable).with_name("memvault"))
WRITER = """
import sys, time
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vault import Vault
with Vault.open(sys.argv[1]) as vault:
    for n in range(int(sys.argv[2])):
        text = f"Bench {sys.argv[4]} record {n}: Tamsin tried the Corvel route"
        vault.add(OWNER, Draft.of(statement=text, domain="bench"))
        time.sleep(float(sys.argv[3]))
"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run_way(home: Path, way: str, samples: int, interval: float, env: dict[str, str]) -> list[float]:
    latencies: list[float] = []
    done = threading.Event()

    def heard(batch: ChangeBatch) -> None:
        now = time.time()
        for change in batch.changes:
            if change.kind is ChangeKind.MEMORY_ADDED:
                latencies.append((now - datetime.fromisoformat(change.time).timestamp()) * 1000)
        if len(latencies) >= samples:
            done.set()

    daemon = None
    if way == "daemon":
        daemon = subprocess.Popen([MEMVAULT, "daemon", "--headless"], env=env, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while relay.connect(relay.DaemonAddress.for_home(home)) is None:
            if time.monotonic() > deadline:
                raise SystemExit("the daemon did not start")
            time.sleep(0.1)
        time.sleep(2)  # let its start-up upkeep (backup, domain upkeep) finish before measuring
    try:
        with Vault.open(home) as vault, ChangeListener(vault, heard) as listener:
            assert listener.mode == way, listener.mode
            subprocess.run(
                [sys.executable, "-c", WRITER, str(home), str(samples), str(interval), way], env=env, check=True
            )
            if not done.wait(30):
                print(f"  {way}: only {len(latencies)} of {samples} changes arrived", file=sys.stderr)
    finally:
        if daemon is not None:
            daemon.terminate()
            daemon.wait(30)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=50)
    parser.add_argument("--interval", type=float, default=0.1)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="memvault-bench-changes-"))
    env = {
        **os.environ,
        "MEMVAULT_HOME": str(scratch / "home"),
        "MEMVAULT_PASSPHRASE": "bench passphrase (fictional)",
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
        "MEMVAULT_EMBEDDINGS": "off",
    }
    os.environ.update(env)
    try:
        Vault.open(scratch / "home", create=True).close()
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
        for way in ("file", "daemon"):
            found = run_way(scratch / "home", way, args.samples, args.interval, env)
            if found:
                print(
                    f"{way:<7} n={len(found):<4} median {statistics.median(found):6.1f} ms"
                    f"   p95 {percentile(found, 0.95):6.1f} ms   max {max(found):6.1f} ms"
                )
        print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
