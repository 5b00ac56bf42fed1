"""The packet: compact lines for the model, each citing its record's id, inside the budgets.

Budgets: at most `max_records` lines and `max_tokens` tokens (counted with the embedding
model's own word-piece tokenizer, the nearest stand-in for an assistant's). When records of
several domains compete, each domain may take at most its own token share (the domain's
`token_share`, never above `domain_share`) in a first pass; a second pass fills what is left
best-first, so the shares only stop one domain from crowding the others out. The newest
authoritative current constraint among the ranked records (explicit, current, type
CONSTRAINT) is never dropped, whatever the budget.

Labels tell the model how far to trust a line: disputed, partial, historical, superseded
(with when and by what), conflicts with [id], valid until, due, uncertain.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from memvault.core.model import Explicitness, Memory, MemoryType, Status
from memvault.core.retrieval.embeddings import token_counter

log = logging.getLogger("memvault.retrieval")
Counter = Callable[[str], int]


def estimate_tokens(text: str) -> int:
    """A cheap stand-in for the tokenizer: about four characters a token for English."""
    return len(text) // 4 + 1


def default_counter() -> Counter:
    """The tokenizer's count, or the estimate when the tokenizer file cannot be used."""
    try:
        return token_counter()
    except Exception as exc:  # a missing or altered tokenizer must not stop search
        log.warning("packet tokens estimated: tokenizer unavailable (%s)", type(exc).__name__)
        return estimate_tokens


def line_for(record: Memory, conflicts: Sequence[str] = ()) -> str:
    notes = []
    if record.status is Status.SUPERSEDED:
        when = f" on {record.valid_until[:10]}" if record.valid_until else ""
        by = f" by [{record.superseded_by_id}]" if record.superseded_by_id else ""
        notes.append(f"superseded{when}{by}")
    elif record.status is not Status.CURRENT:
        notes.append(record.status.value)
    if conflicts:
        notes.append("conflicts with " + ", ".join(f"[{other}]" for other in conflicts))
    if record.valid_until and record.status is not Status.SUPERSEDED:
        notes.append(f"valid until {record.valid_until[:10]}")
    if record.due_at:
        notes.append(f"due {record.due_at[:10]}")
    if record.confidence < 0.5:
        notes.append("uncertain")
    if record.explicitness is Explicitness.INFERRED:
        notes.append("inferred")
    suffix = f" ({'; '.join(notes)})" if notes else ""
    return f"[{record.id}] {record.domain}/{record.type.value.lower()}: {record.statement}{suffix}"


@dataclass(frozen=True)
class Packet:
    text: str
    records: list[Memory]
    tokens: int
    truncated: bool
    tokens_by_domain: dict[str, int] = field(default_factory=dict)


def must_keep(ranked: Sequence[Memory]) -> Memory | None:
    """The newest authoritative current constraint among the ranked records."""
    constraints = [
        r
        for r in ranked
        if r.type is MemoryType.CONSTRAINT and r.status is Status.CURRENT and r.explicitness is Explicitness.EXPLICIT
    ]
    return max(constraints, key=lambda r: (r.valid_from or "", r.learned_at or ""), default=None)


def compile_packet(
    ranked: list[Memory],
    max_records: int,
    max_tokens: int,
    *,
    count: Counter | None = None,
    domain_share: float = 1.0,
    conflicts: Mapping[str, Sequence[str]] | None = None,
    shares: Mapping[str, float] | None = None,
) -> Packet:
    """Best first until a budget runs out; see the module docstring for the rules."""
    count = count or estimate_tokens
    conflicts = conflicts or {}
    keep = must_keep(ranked)
    ordered = ([keep] if keep else []) + [r for r in ranked if r is not keep]
    lines: dict[str, str] = {}
    costs: dict[str, int] = {}

    def cost_of(record: Memory) -> int:  # counted only for records the budget gets to
        if record.id not in costs:
            lines[record.id] = line_for(record, conflicts.get(record.id, ()))
            costs[record.id] = count(lines[record.id])
        return costs[record.id]

    several = len({r.domain for r in ordered}) > 1
    shares = shares or {}

    def cap(domain: str) -> float:  # a domain's own token share, never above domain_share
        share = min(domain_share, shares.get(domain, domain_share))
        return max_tokens * share if several and share < 1.0 else float(max_tokens)

    chosen: list[Memory] = []
    used: dict[str, int] = {}
    total = 0
    deferred: list[Memory] = []
    for record in ordered:
        forced = record is keep
        if not forced and len(chosen) >= max_records:
            break
        cost = cost_of(record)
        if not forced and total + cost > max_tokens:
            continue
        if not forced and used.get(record.domain, 0) + cost > cap(record.domain):
            deferred.append(record)
            continue
        chosen.append(record)
        used[record.domain] = used.get(record.domain, 0) + cost
        total += cost
    for record in deferred:  # second pass: what the other domains did not need
        cost = cost_of(record)
        if len(chosen) < max_records and total + cost <= max_tokens:
            chosen.append(record)
            used[record.domain] = used.get(record.domain, 0) + cost
            total += cost
    picked = {r.id for r in chosen}
    truncated = any(r.id not in picked for r in ordered[:max_records])
    order = {r.id: i for i, r in enumerate(ranked)}
    chosen.sort(key=lambda r: order[r.id])
    text = "\n".join(lines[r.id] for r in chosen)
    return Packet(text, chosen, total, truncated, used)
