"""Off-topic requests on the labelled set (tests/retrieval/offtopic_set.py): a script, not a test.

    .venv/bin/python tests/retrieval/eval_off_topic.py [--maintained] [--json FILE]

Builds the set's fictional store (a real encrypted one, in a temporary folder), asks every request
through `Vault.search` as the person (limit 10), and prints, per split (`tune`, `held`, `fresh`):

- precision and recall of "activates nothing": the answer is skipped, with no domain and no result,
  for `off` requests against every `off` and `on` request (`near` ones are counted apart);
- how many of those skips the governor's text rules made before the store was read, and how many
  the router's look at the records made (`off-topic: ...`);
- recall@10 of the `on` requests that have relevant records, and how many of them were skipped;
- the same over both held-out splits (`held` and `fresh`), English and other languages apart.

`--maintained` runs the domain upkeep first (keywords and centroids, as the daemon would).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("MEMVAULT_PASSPHRASE", "evaluation (fictional data)")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
os.environ.pop("MEMVAULT_WRITE_MODE", None)
os.environ.pop("MEMVAULT_EMBEDDINGS", None)
sys.path.insert(0, str(Path(__file__).parent))

import offtopic_set

from memvault.core.retrieval.governor import OFF_TOPIC
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.search_request import SearchRequest

NOW = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


def build(vault: Vault) -> dict[str, str]:
    """The set's records, each in its domain; answers key -> id (a record the writer refuses is left out)."""
    ids = {}
    for key, domain, kind, statement in offtopic_set.MEMORIES:
        result = vault.add(OWNER, Draft.of(statement=statement, domain=domain, type=kind))
        if result["outcome"] == "added":
            ids[key] = str(result["id"])
        else:
            print(f"not stored: {key} ({result['outcome']})", file=sys.stderr)
    return ids


def requests() -> list[tuple[str, str, tuple[str, ...], str]]:
    """(text, label, relevant keys, split) for every request of the set."""
    found = [(t, label, rel, offtopic_set.split(t)) for t, label, rel in offtopic_set.REQUESTS]
    return found + [(t, label, rel, "fresh") for t, label, rel in offtopic_set.FRESH]


def run(maintained: bool) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="memvault-offtopic-") as tmp:
        vault = Vault.open(Path(tmp) / "store", create=True, clock=FixedClock(NOW), scrypt_n=2**12)
        try:
            vault.set_setting(OWNER, "search_deadline_ms", 1e4)  # quality, not the machine's load
            ids = build(vault)
            if maintained:
                vault.maintain_domains(OWNER)
            for text, label, relevant, split in requests():
                vault.retriever.clear_caches()
                answer = vault.search(OWNER, SearchRequest.of(query=text, limit=10))
                found = [hit["id"] for hit in answer["results"]]
                wanted = {ids[k] for k in relevant if k in ids}
                rows.append(
                    {
                        "text": text,
                        "label": label,
                        "split": split,
                        "nothing": bool(answer["skipped"]) and not answer["domains"] and not found,
                        "by_router": answer["reason"] == OFF_TOPIC,
                        "recall10": len(wanted & set(found[:10])) / len(wanted) if wanted else None,
                    }
                )
        finally:
            vault.close()
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[row["split"]].append(row)
        groups["all"].append(row)
        if row["split"] != "tune":
            groups["held+fresh, " + ("other" if row["text"] in offtopic_set.NOT_ENGLISH else "English")].append(row)
    out = {}
    for split, members in groups.items():
        off = [r for r in members if r["label"] == "off"]
        on = [r for r in members if r["label"] == "on"]
        near = [r for r in members if r["label"] == "near"]
        caught = sum(r["nothing"] for r in off)
        wrong = sum(r["nothing"] for r in on)
        answerable = [r for r in on if r["recall10"] is not None]
        out[split] = {
            "off": len(off),
            "on": len(on),
            "precision": round(caught / (caught + wrong), 3) if caught + wrong else 1.0,
            "recall": round(caught / len(off), 3) if off else 0.0,
            "caught_by_rules": sum(r["nothing"] and not r["by_router"] for r in off),
            "caught_by_router": sum(r["by_router"] for r in off),
            "on_skipped": wrong,
            "on_skipped_answerable": sum(r["nothing"] for r in answerable),
            "on_recall10": round(sum(r["recall10"] for r in answerable) / len(answerable), 3) if answerable else 0.0,
            "near_skipped": f"{sum(r['nothing'] for r in near)}/{len(near)}",
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--maintained", action="store_true", help="run the domain upkeep before asking")
    parser.add_argument("--json", type=Path, help="also write every request's outcome to this file")
    parser.add_argument("--show", action="store_true", help="list the requests judged wrongly")
    args = parser.parse_args()
    rows = run(args.maintained)
    for split, figures in sorted(summary(rows).items()):
        print(f"{split:<6}  {json.dumps(figures)}")
    if args.show:
        for row in rows:
            if (row["label"] == "off") != row["nothing"] and row["label"] != "near":
                print(f"  {row['split']:<6} {row['label']:<4} nothing={row['nothing']!s:<5} {row['text']}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
