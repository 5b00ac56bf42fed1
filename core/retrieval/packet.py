"""The packet: compact lines for the model, each citing its record's id, inside a token budget."""

from __future__ import annotations

from dataclasses import dataclass

from memvault.core.model import Memory, MemoryType, Status


def estimate_tokens(text: str) -> int:
    """A cheap stand-in for the tokenizer: about four characters a token for English."""
    return len(text) // 4 + 1


def line_for(record: Memory) -> str:
    notes = []
    if record.status is Status.SUPERSEDED and record.valid_until:
        notes.append(f"superseded on {record.valid_until[:10]}")
    elif record.status is not Status.CURRENT:
        notes.append(record.status.value)
    if record.valid_until and record.status is not Status.SUPERSEDED:
        notes.append(f"valid until {record.valid_until[:10]}")
    if record.due_at:
        notes.append(f"due {record.due_at[:10]}")
    if record.confidence < 0.5:
        notes.append("uncertain")
    suffix = f" ({'; '.join(notes)})" if notes else ""
    return f"[{record.id}] {record.domain}/{record.type.value.lower()}: {record.statement}{suffix}"


@dataclass(frozen=True)
class Packet:
    text: str
    records: list[Memory]
    tokens: int
    truncated: bool


def compile_packet(ranked: list[Memory], max_records: int, max_tokens: int) -> Packet:
    """Best first until a budget runs out; the newest current constraint is never dropped."""
    chosen: list[Memory] = []
    lines: list[str] = []
    tokens = 0
    truncated = False
    constraints = [r for r in ranked if r.type is MemoryType.CONSTRAINT and r.status is Status.CURRENT]
    must_keep = max(constraints, key=lambda r: r.learned_at or "", default=None)
    ordered = ([must_keep] if must_keep else []) + [r for r in ranked if r is not must_keep]
    for record in ordered:
        line = line_for(record)
        cost = estimate_tokens(line)
        if len(chosen) >= max_records or (tokens + cost > max_tokens and record is not must_keep):
            truncated = True
            continue
        chosen.append(record)
        lines.append(line)
        tokens += cost
    order = {r.id: i for i, r in enumerate(ranked)}
    paired = sorted(zip(chosen, lines, strict=True), key=lambda pair: order[pair[0].id])
    return Packet("\n".join(line for _, line in paired), [r for r, _ in paired], tokens, truncated)
