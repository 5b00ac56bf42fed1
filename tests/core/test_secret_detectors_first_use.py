"""The secret detectors load safely when several threads write at once for the first time: a served
store warms the gate on a thread of its own while its first write may already be checked (a CI run
once answered that write with an internal error: detect-secrets' modules, imported by two threads at
once, met each other half made)."""

from __future__ import annotations

import subprocess
import sys

# Each thread enters detect-secrets another way, all at once, in a process that has not loaded it.
FIRST_USE = """
import threading
from memvault.core.writer import secrets
calls = [secrets._finding_patterns, secrets._use_our_plugins, lambda: secrets.find_secrets("key AKIA0000000000000000")]
failed = []
start = threading.Barrier(12)
def run(i):
    start.wait()
    try:
        calls[i % len(calls)]()
    except Exception as exc:
        failed.append(type(exc).__name__)
threads = [threading.Thread(target=run, args=(i,)) for i in range(12)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(",".join(failed) or "none")
"""


def test_threads_loading_the_detectors_at_once_all_succeed() -> None:
    for _ in range(3):
        command = [sys.executable, "-c", FIRST_USE]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
        assert done.stdout.strip() == "none", done.stdout + done.stderr
