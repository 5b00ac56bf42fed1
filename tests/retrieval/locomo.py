"""LoCoMo conversations as memvault sees them: turns to store and questions to ask (evaluation only).

The data is read from where it lies (MEMVAULT_LOCOMO, else ../shared/data/locomo-dev beside the
repository); it is never copied into the repository. See that folder's README for the measure:
every turn one memory (`"<speaker>: <text>"`, plus ` [shares image: <caption>]`), event_time = its
session's date, source_reference = its dia_id, confidence 0.9; every question asked with
`limit: 10, depth: "deep"`.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
FILE = "locomo-dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
ADVERSARIAL = 5


@dataclass(frozen=True)
class Turn:
    statement: str
    event_time: str
    dia_id: str


@dataclass(frozen=True)
class Question:
    text: str
    evidence: tuple[str, ...]
    category: int


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]


def data_dir() -> Path | None:
    """The dev split's folder when it is present, else None (the evaluation then skips it)."""
    given = os.environ.get("MEMVAULT_LOCOMO")
    folder = Path(given) if given else REPO.parent / "shared" / "data" / "locomo-dev"
    if not (folder / FILE).exists():  # the repository may sit in a worktree: try the main checkout's sibling
        folder = Path("/work/shared/data/locomo-dev") if not given else folder
    return folder if (folder / FILE).exists() else None


def session_time(text: str) -> str:
    """'1:56 pm on 8 May, 2023' as an ISO 8601 UTC time."""
    moment = datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _turns(conversation: dict[str, Any]) -> list[Turn]:
    turns: list[Turn] = []
    sessions = sorted(
        (int(k.split("_")[1]) for k in conversation if k.startswith("session_") and k.count("_") == 1),
    )
    for n in sessions:
        when = session_time(conversation[f"session_{n}_date_time"])
        for turn in conversation[f"session_{n}"]:
            statement = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                statement += f" [shares image: {turn['blip_caption']}]"
            turns.append(Turn(statement, when, turn["dia_id"]))
    return turns


def _evidence(given: list[Any]) -> tuple[str, ...]:
    """dia_ids, some of which the source writes several to an item ("D8:6; D9:17")."""
    return tuple(part for item in given for part in re.split(r"[;,\s]+", str(item)) if part.startswith("D"))


def load(folder: Path, wanted: set[str] | None = None) -> list[Conversation]:
    raw = json.loads((folder / FILE).read_text(encoding="utf-8"))
    found = []
    for item in raw:
        if wanted and item["sample_id"] not in wanted:
            continue
        questions = tuple(
            Question(str(qa["question"]), _evidence(qa.get("evidence", [])), int(qa["category"])) for qa in item["qa"]
        )
        found.append(Conversation(item["sample_id"], tuple(_turns(item["conversation"])), questions))
    return found


def add_args(turn: Turn) -> dict[str, Any]:
    """The memory_add arguments of one turn, as the README prescribes."""
    return {
        "statement": turn.statement,
        "confidence": 0.9,
        "event_time": turn.event_time,
        "source_reference": turn.dia_id,
    }
