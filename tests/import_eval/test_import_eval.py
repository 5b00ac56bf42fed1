"""The import evaluation set stays what was measured: built the same each time, split as fixed before any
rule was tuned, in the three real formats; and today's importer keeps its figures on the tune part
(the held-out part is measured by measure.py, never asserted here, so nobody tunes a rule to it)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import build_set as build
import measure
from templates import ISSUE_EXAMPLES

# Fixed on 2026-12-07, before any extraction rule was changed for this set (README.md, "Split").
HELD_OUT = {
    "de-hosting-beschluss", "de-nichts", "de-sprache-tee", "de-steuer-frist", "en-answers-editor",
    "en-dinner-diet", "en-flight", "en-nothing-durable", "en-offer-undecided", "en-repo-pnpm", "en-standup-moved",
    "es-cita-dentista", "es-curso", "es-decision-db", "es-nada", "fr-allergie", "fr-dentiste", "fr-job-plus",
    "fr-rien",
}  # fmt: skip


def test_the_set_is_built_the_same_and_split_as_fixed() -> None:
    built = build.conversations()
    stored = [json.loads(line) for line in build.OUT.read_text(encoding="utf-8").splitlines()]
    assert built == stored
    assert {t for t, part in build.split().items() if part == "heldout"} == HELD_OUT
    assert not ISSUE_EXAMPLES & HELD_OUT
    assert len(built) >= 40
    for part in ("tune", "heldout"):
        chosen = [c for c in built if c["part"] == part]
        assert {c["format"] for c in chosen} == {"chatgpt", "claude", "codex"}
        assert {c["lang"] for c in chosen} == {"en", "de", "fr", "es"}
        assert any(e["change"] for c in chosen for e in c["expect"]) and any(not c["expect"] for c in chosen)


def test_the_tune_part_keeps_its_figures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")
    chosen = [c for c in build.conversations() if c["part"] == "tune"]
    figures = measure.score(chosen, measure.run_part(tmp_path, "tune", chosen))
    assert figures["recall"]["rate"] >= 0.95 and figures["precision"]["rate"] >= 0.95
    assert figures["type_accuracy"]["rate"] >= 0.95 and figures["changes_corrected"]["rate"] >= 0.9
    assert figures["secrets_kept"] == 0
