"""Train the passing-mood head (core/writer/mood.py) on the tuning part, and measure it on the held-out part.

    .venv/bin/python tests/writer_eval/train_mood.py [--write]

Ridge regression (in its dual form: a few thousand statements, 16k buckets) on the n-gram features
of every tuning statement, mood against everything else; the threshold is 0. Prints precision and
recall on both parts (per language on the held-out part), and the ordinary statements taken for
moods. With --write, stores the weights in resources/writer/ and prints the sha256 to pin in mood.py.
"""

from __future__ import annotations

import hashlib
import json
import sys
from array import array
from pathlib import Path

import numpy as np

from memvault.core.writer import mood

HERE = Path(__file__).parent
OUT = HERE.parents[1] / "resources" / "writer"
RIDGE = 1.0


def matrix(texts: list[str]) -> np.ndarray:
    rows = np.zeros((len(texts), mood.BUCKETS), dtype=np.float64)
    for i, text in enumerate(texts):
        for bucket, value in mood.features(text).items():
            rows[i, bucket] = value
    return rows


def main() -> None:
    rows = [json.loads(line) for line in (HERE / "statements.jsonl").read_text(encoding="utf-8").splitlines()]
    tune = [r for r in rows if r["split"] == "tune"]
    held = [r for r in rows if r["split"] == "heldout"]
    a = matrix([r["text"] for r in tune])
    y = np.array([1.0 if r["labels"]["mood"] else -1.0 for r in tune])
    alpha = np.linalg.solve(a @ a.T + RIDGE * np.eye(len(a)), y)  # through the origin: +1 mood, -1 the rest
    weights = (a.T @ alpha).astype(np.float32)
    bias = 0.0
    for name, part in (("tune", tune), ("held-out", held)):
        scores = matrix([r["text"] for r in part]) @ weights + bias
        said = scores > 0
        truth = np.array([bool(r["labels"]["mood"]) for r in part])
        tp, fp, fn = int((said & truth).sum()), int((said & ~truth).sum()), int((~said & truth).sum())
        ordinary = np.array([bool(r["labels"]["ordinary"]) for r in part])
        precision, recall = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
        print(f"{name:9} precision {precision:.3f} recall {recall:.3f} (moods {int(truth.sum())});", end=" ")
        print(f"ordinary taken for moods {int((said & ordinary).sum())} of {int(ordinary.sum())}")
        if name == "held-out":
            for lang in ("en", "de", "fr", "es"):
                mask = truth & np.array([r["lang"] == lang for r in part])
                print(f"          {lang}: recall {said[mask].mean():.3f} of {int(mask.sum())}")
    if "--write" in sys.argv:
        OUT.mkdir(parents=True, exist_ok=True)
        data = array("f", weights.tolist()).tobytes()
        (OUT / "mood_head.bin").write_bytes(data)
        (OUT / "mood_head.json").write_text(json.dumps({"bias": bias, "buckets": mood.BUCKETS, "ridge": RIDGE}) + "\n")
        print("sha256", hashlib.sha256(data).hexdigest())


if __name__ == "__main__":
    main()
