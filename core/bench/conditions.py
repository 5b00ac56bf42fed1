"""The three conditions, at the retrieval level (no model): what each hands over per question.

- `NoMemory`: nothing.
- `NativeMemory`: the stand-in for an assistant's built-in memory: the flat list of saved
  memories (corrections applied in place, restatements kept, as such lists keep them),
  newest first, truncated to a fixed token budget, injected whole into every request.
- `MemvaultCondition`: memvault's packet, fetched by a `Search` function the caller provides
  (the benchmark drives the real MCP server through the official client: mcp_bridge does that,
  core knows no MCP).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any, Protocol

from memvault.core.bench.dataset import DataSet, Question
from memvault.core.bench.handover import ContextLine, Handover

Counter = Callable[[str], int]
Search = Callable[[dict[str, Any]], dict[str, Any]]  # memory_search arguments -> its JSON answer
_CITED = re.compile(r"^\[([^\]]+)\]")


class Condition(Protocol):
    name: str

    def answer(self, question: Question) -> Handover: ...


class NoMemory:
    name = "no memory"

    def answer(self, question: Question) -> Handover:
        return Handover()


class NativeMemory:
    name = "native memory"

    def __init__(self, data: DataSet, budget_tokens: int, count: Counter) -> None:
        self.budget_tokens = budget_tokens
        self.lines, self.tokens = native_list(data, budget_tokens, count)

    def answer(self, question: Question) -> Handover:
        started = time.perf_counter()
        lines = list(self.lines)  # the same list for every request: no retrieval happens
        return Handover(lines, self.tokens, (time.perf_counter() - started) * 1000)


def native_list(data: DataSet, budget_tokens: int, count: Counter) -> tuple[list[ContextLine], int]:
    """The saved memories, newest first, as many as fit the budget."""
    replaced = {r.corrects for r in data.records if r.corrects}
    kept: list[ContextLine] = []
    total = 0
    for record in reversed(data.records):
        if record.key in replaced:
            continue
        line = f"- {record.statement}"
        cost = count(line)
        if total + cost > budget_tokens:
            break
        kept.append(ContextLine(record.key, line))
        total += cost
    return kept, total


class MemvaultCondition:
    name = "memvault"

    def __init__(self, search: Search, keys_by_id: dict[str, str], count: Counter, *, name: str = "memvault") -> None:
        self.search = search
        self.keys_by_id = keys_by_id
        self.count = count
        self.name = name

    def answer(self, question: Question) -> Handover:
        started = time.perf_counter()
        reply = self.search({"query": question.query, **question.search})
        latency = (time.perf_counter() - started) * 1000
        if "error" in reply:  # a refused call hands over nothing
            return Handover(latency_ms=latency, calls=1, error=str(reply["error"].get("code")))
        packet = str(reply.get("packet") or "")
        lines = [self._line(text) for text in packet.splitlines() if text.strip()]
        return Handover(lines, self.count(packet) if packet else 0, latency, 1, bool(reply.get("skipped")))

    def _line(self, text: str) -> ContextLine:
        cited = _CITED.match(text)
        return ContextLine(self.keys_by_id.get(cited.group(1)) if cited else None, text)
