"""How often the writer pass takes a statement for a change of a record it has nothing to do with.

    .venv/bin/python tests/writer_eval/unrelated_store.py [--pairs fresh2,fresh3] [--split tune|heldout]
        [--limit 300] [--show 10]

A pair measures one record against one statement; a store holds hundreds, and every neighbour the
writer compares is a chance to supersede the wrong one (an import once took "send the Marten report
by Friday" for a correction of "...the Juniper report..."). This script fills a private store with
the demo's and the benchmark's fictional records (another person's life: 312 records), then proposes
the new statements of the hand-written pairs (each set in turn; tuning parts unless `--split
heldout`), one at a time, as a local assistant in review mode (nothing is committed, so each is
judged against the same store), and counts the classifications. Every SUPERSEDE, NO_CHANGE or
ARCHIVE is a candidate error: the statements were written about other people, though a few share a
topic with the demo's person ("oat milk in coffee") and may fairly be read as changes; `--show`
prints them to judge.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections import Counter
from itertools import zip_longest
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from measure import sandbox  # noqa: E402 - a private home, XDG folders and passphrase first


def records() -> list[tuple[str, str]]:
    """(statement, domain) of the demo's and the benchmark's records."""
    out = []
    for path in sorted((ROOT / "resources" / "demo").glob("*.jsonl")):
        domain = "general"
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row.get("op") == "defaults":
                domain = row["domain"]
            elif "statement" in row:
                out.append((row["statement"], row.get("domain") or domain))
    for line in (ROOT / "resources" / "bench" / "records.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if "statement" in row:
            out.append((row["statement"], row.get("domain") or "general"))
    return out


def statements(sets: list[str], split: str, limit: int) -> list[str]:
    """The new statements of each set's pairs in `split`, taken in turn from each set."""
    each = []
    for name in sets:
        rows = [json.loads(line) for line in (HERE / f"{name}_pairs.jsonl").read_text(encoding="utf-8").splitlines()]
        each.append([row["text"] for row in rows if row["split"] == split])
    taken = [text for group in zip_longest(*each) for text in group if text is not None]
    return taken[:limit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pairs", default="fresh2,fresh3", help="hand-written pair sets whose tuning parts are used")
    parser.add_argument("--split", choices=("tune", "heldout"), default="tune")
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--show", type=int, default=0, help="print up to N statements taken for changes")
    args = parser.parse_args()
    root = sandbox(True)
    try:
        from memvault.core.vault import Vault  # noqa: PLC0415 - after the sandbox is set up
        from memvault.core.vocabulary.drafts import Draft  # noqa: PLC0415
        from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER  # noqa: PLC0415
        from memvault.core.vocabulary.requests import ProposeRequest  # noqa: PLC0415

        stored, proposed = records(), statements(args.pairs.split(","), args.split, args.limit)
        with Vault.open(root / "store", create=True, scrypt_n=2**12) as vault:
            for statement, domain in stored:
                vault.add(OWNER, Draft.of(statement=statement, domain=domain))
            got: Counter[str] = Counter()
            taken = []
            started = time.monotonic()
            for text in proposed:
                request = ProposeRequest.of(candidates=[{"statement": text, "domain": "eval"}])
                result = vault.propose(LOCAL_ASSISTANT, request)["results"][0]
                got[str(result["classification"])] += 1
                if result["classification"] in ("SUPERSEDE", "NO_CHANGE", "ARCHIVE"):
                    target = vault.get(OWNER, result["target_id"])["memory"]["statement"]
                    taken.append(f"{result['classification']}: {text}  <-  {target}")
            per = (time.monotonic() - started) / max(len(proposed), 1) * 1000
        print(f"{len(stored)} records; {len(proposed)} unrelated statements proposed: {dict(got)} ({per:.0f} ms each)")
        for line in taken[: args.show]:
            print("  " + line)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
