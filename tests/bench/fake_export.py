"""A fictional ChatGPT export of N conversations (for the import bench and the resume test).

Every name, number and sentence is invented; the generator is deterministic for a given seed.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

NAMES = ["Kestrel", "Heron", "Lindqvist", "Harbor", "Osprey", "Juniper", "Falcon", "Marten", "Birch", "Alder"]
THINGS = ["green tea", "black coffee", "the river path", "paper notebooks", "short answers", "night trains",
          "PostgreSQL", "SQLite", "Kotlin", "Rust", "sourdough bread", "jazz", "audiobooks"]  # fmt: skip
DAYS = ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"]
PERSON = [
    "I prefer {thing} over {other}.",
    "We decided to use {thing} for the {name} project.",
    "I can't work on {name} on {day}.",
    "The {name} project is in beta now.",
    "I need to send the {name} report by Friday.",
    "I'm not sure whether to move {name} to {thing}.",
    "My budget for {name} is {n} euros.",
    "Can you explain how {thing} works?",
    "Thanks, that helps a lot.",
    "Please rewrite this paragraph about {thing}.",
]
ASSISTANT = ["Here is a short overview of {thing}.", "That sounds like a good plan.", "Sure, here you go."]


def _text(rng: random.Random, templates: list[str]) -> str:
    thing, other = rng.sample(THINGS, 2)
    return rng.choice(templates).format(
        thing=thing, other=other, name=rng.choice(NAMES), day=rng.choice(DAYS), n=rng.randrange(100, 9000, 50)
    )


def conversation(rng: random.Random, index: int, start: float) -> dict[str, Any]:
    mapping: dict[str, Any] = {"root": {"id": "root", "message": None, "parent": None, "children": []}}
    parent, when = "root", start + index * 3600.0
    for turn in range(rng.randint(2, 8)):
        node = f"c{index}-n{turn}"
        role = "user" if turn % 2 == 0 else "assistant"
        text = " ".join(_text(rng, PERSON if role == "user" else ASSISTANT) for _ in range(rng.randint(1, 3)))
        mapping[node] = {
            "id": node,
            "parent": parent,
            "children": [],
            "message": {"id": node, "author": {"role": role}, "create_time": when + turn * 30,
                        "content": {"content_type": "text", "parts": [text]}},
        }  # fmt: skip
        mapping[parent]["children"].append(node)
        parent = node
    return {
        "title": f"Conversation {index} about {rng.choice(NAMES)}",
        "create_time": when,
        "conversation_id": f"fict-{index:06d}",
        "current_node": parent,
        "mapping": mapping,
    }


def write_export(path: Path, conversations: int, seed: int = 7) -> Path:
    rng = random.Random(seed)
    start = 1735689600.0  # 2025-01-01
    path.write_text(json.dumps([conversation(rng, i, start) for i in range(conversations)]))
    return path


if __name__ == "__main__":
    out = write_export(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 2000)
    print(out)
