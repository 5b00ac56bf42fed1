"""Benchmark imports: conversations/s and records/s, dry run and commit, embeddings on and off.

    nice -n 10 python tests/bench/bench_import.py [--conversations 2000] [--modes dry-off,dry-on,commit-off,commit-on]

A script, not a test. A fictional ChatGPT export (fake_export.py) is written once; each mode
runs in a fresh encrypted store in a temp folder, as the person (`memvault import` does the
same). Prints wall-clock seconds, conversations/s and records/s (candidates judged for a dry
run, records written for a commit; with embeddings on a commit includes embedding them).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from fake_export import write_export

os.environ.setdefault("MEMVAULT_PASSPHRASE", "bench passphrase (fictional)")
os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")

from memvault.core.importers.request import ImportRequest
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER


def run(export: Path, mode: str, root: Path) -> None:
    step, embeddings = mode.split("-")
    os.environ["MEMVAULT_EMBEDDINGS"] = "local" if embeddings == "on" else "off"
    home = root / mode
    with Vault.open(home, create=True, scrypt_n=2**12) as vault:
        started = time.perf_counter()
        report = vault.imports.run(OWNER, ImportRequest.parse({"path": str(export), "commit": step == "commit"}))
        seconds = time.perf_counter() - started
    counts = report["counts"]
    records = report["passes"]["extraction"]["candidates"] if step == "dry" else counts["added"] + counts["corrected"]
    print(
        f"| {mode} | {counts['conversations']} | {records} | {seconds:.1f} s | {counts['conversations'] / seconds:.0f}"
        f" | {records / seconds:.0f} | added {counts['added']}, known {counts['confirmed']},"
        f" corrected {counts['corrected']}, excluded {counts['excluded']} |",
        flush=True,
    )
    shutil.rmtree(home, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=2000)
    parser.add_argument("--modes", default="dry-off,dry-on,commit-off,commit-on")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="memvault-bench-import-"))
    try:
        export = write_export(root / "conversations.json", args.conversations)
        print(f"export: {args.conversations} conversations, {export.stat().st_size / 1e6:.1f} MB")
        print(
            "| mode | conversations | records | time | conversations/s | records/s | outcome |\n"
            "|---|---|---|---|---|---|---|"
        )
        for mode in args.modes.split(","):
            run(export, mode, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
