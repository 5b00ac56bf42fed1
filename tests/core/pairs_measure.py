"""Precision and recall of the writer's judgement on the labelled pairs (tests/core/propose_pairs.py).

Run: `python tests/core/pairs_measure.py` (prints both judgements: with embeddings, lexical only).
The same function backs the floors in test_writer_pairs.py.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from propose_pairs import (
    CHANGE_LOOKALIKES,
    CHANGE_SAME,
    CHANGES,
    CHATTER_PAIRS,
    CONFLICTS,
    DISTINCT,
    DUPLICATES,
    ENDINGS,
    HELD_OUT,
    LOOKALIKES,
    PARAPHRASES,
    UPDATES,
)

from memvault.core.writer.gate import rejection
from memvault.core.writer.similarity import Relation, relate

CLASSES = ("NO_CHANGE", "SUPERSEDE", "ARCHIVE", "ADD", "REJECTED")
_BY_RELATION = {
    Relation.SAME: "NO_CHANGE",
    Relation.CONFLICT: "SUPERSEDE",
    Relation.REPLACES: "SUPERSEDE",
    Relation.ENDS: "ARCHIVE",
    Relation.UNRELATED: "ADD",
}
LABELLED: list[tuple[str, str, str]] = [
    *((r, c, "NO_CHANGE") for r, c in DUPLICATES + PARAPHRASES + HELD_OUT["same"] + CHANGE_SAME),
    *((r, c, "SUPERSEDE") for r, c in CONFLICTS + UPDATES + HELD_OUT["conflict"] + CHANGES),
    *((r, c, "ARCHIVE") for r, c in ENDINGS + HELD_OUT["ends"]),
    *((r, c, "ADD") for r, c in DISTINCT + LOOKALIKES + HELD_OUT["unrelated"] + CHANGE_LOOKALIKES),
    *((r, c, "REJECTED") for r, c in CHATTER_PAIRS),
]


def judge(record: str, candidate: str, cosine: float | None) -> str:
    """What the writer does with `candidate` when `record` is the one live record near it."""
    if rejection(candidate):
        return "REJECTED"
    return _BY_RELATION[relate(candidate, record, cosine).relation]


def cosines() -> list[float]:
    from memvault.core.retrieval.embeddings import shared_embedder  # noqa: PLC0415 - loads the model

    vectors = shared_embedder().embed([text for r, c, _ in LABELLED for text in (r, c)])
    return [float(vectors[2 * i] @ vectors[2 * i + 1]) for i in range(len(LABELLED))]


def measure(with_embeddings: bool) -> tuple[dict[str, tuple[float, float, int]], list[tuple[str, str, str, str]]]:
    """{class: (precision, recall, support)} and the misjudged pairs (record, candidate, expected, got)."""
    found = cosines() if with_embeddings else [None] * len(LABELLED)
    got = [judge(r, c, cos) for (r, c, _), cos in zip(LABELLED, found, strict=True)]
    expected = [e for _, _, e in LABELLED]
    hits, said, truth = Counter[str](), Counter(got), Counter(expected)
    for e, g in zip(expected, got, strict=True):
        hits[e] += e == g
    table = {k: (hits[k] / said[k] if said[k] else 1.0, hits[k] / truth[k], truth[k]) for k in CLASSES}
    wrong = [(r, c, e, g) for (r, c, e), g in zip(LABELLED, got, strict=True) if e != g]
    return table, wrong


def main() -> None:
    print(f"{len(LABELLED)} labelled pairs")
    for label, on in (("embeddings", True), ("lexical only", False)):
        table, wrong = measure(on)
        print(f"\n{label}: accuracy {1 - len(wrong) / len(LABELLED):.3f}")
        print("| class | precision | recall | pairs |\n|---|---|---|---|")
        for name, (p, r, n) in table.items():
            print(f"| {name} | {p:.2f} | {r:.2f} | {n} |")
        for record, candidate, e, g in wrong:
            print(f"  expected {e}, got {g}: {candidate!r} vs {record!r}")


if __name__ == "__main__":
    main()
