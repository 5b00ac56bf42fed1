"""The labelled secret set: precision and recall of the writer gate's secret detector.

`data/secret_statements.jsonl` holds fictional statements, each labelled `secret` true or
false; the secret-free ones talk about passwords, banks and codes. Rows marked `held_out`
were written after the detector was tuned on the rest and scored once before any change.
Run `python tests/hardening/secret_set.py` to print the figures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from memvault.core.writer.secrets import find_secrets

DATA = Path(__file__).parent / "data" / "secret_statements.jsonl"


@dataclass(frozen=True)
class Scores:
    secrets: int
    secret_free: int
    missed: list[str]
    refused_wrongly: list[str]

    @property
    def recall(self) -> float:
        return 1 - len(self.missed) / self.secrets

    @property
    def precision(self) -> float:
        caught = self.secrets - len(self.missed)
        return caught / (caught + len(self.refused_wrongly))

    @property
    def false_refusal_rate(self) -> float:
        return len(self.refused_wrongly) / self.secret_free


def rows() -> list[dict[str, object]]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


def score(selected: list[dict[str, object]]) -> Scores:
    labelled = [(str(r["text"]), bool(r["secret"]), bool(find_secrets(str(r["text"])))) for r in selected]
    return Scores(
        secrets=sum(secret for _, secret, _ in labelled),
        secret_free=sum(not secret for _, secret, _ in labelled),
        missed=[t for t, secret, found in labelled if secret and not found],
        refused_wrongly=[t for t, secret, found in labelled if not secret and found],
    )


def main() -> None:
    everything = rows()
    for name, selected in (("all", everything), ("held out", [r for r in everything if r.get("held_out")])):
        s = score(selected)
        print(
            f"{name}: {s.secrets} secret, {s.secret_free} secret-free; precision {s.precision:.3f}, "
            f"recall {s.recall:.3f}, secret-free refused {s.false_refusal_rate:.1%}"
        )


if __name__ == "__main__":
    main()
