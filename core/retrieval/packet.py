"""The packet: compact lines for the model, each citing its record's id, inside the budgets.

Budgets: at most `max_records` lines and `max_tokens` tokens (counted with the embedding
model's own word-piece tokenizer, the nearest stand-in for an assistant's). When records of
several domains compete, each domain may take at most its own token share (the domain's
`token_share`, never above `domain_share`) in a first pass, beyond its first line; a second pass
fills what is left best-first, so the shares only stop one domain from crowding the others out. Relevance comes
first: the newest authoritative current constraint (explicit, current, type CONSTRAINT) is
kept past the record limit and the domain shares only when it bears on the request (its score
at least KEEP_SHARE of the best hit's), and only within the token budget left by the lines
ranked above it: it never displaces a more relevant line, and it keeps its ranked place.
A line longer than the budget it would leave is cut to fit (its statement shortened at a word,
ending in "…"; the id still cites the whole record) rather than passed over for a less relevant
line that fits whole: a tight budget keeps the most relevant records, not the shortest ones.

Labels tell the model how far to trust a line: disputed, partial, historical, superseded
(with when and by what), conflicts with [id], valid until, due, uncertain. Each line cites its
record's source (and the reference within it) when the record has one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from memvault.core.retrieval.embeddings import token_counter
from memvault.core.vocabulary.model import Explicitness, Memory, MemoryType, Status

log = logging.getLogger("memvault.retrieval")
Counter = Callable[[str], int]
KEEP_SHARE = 0.5
MIN_CUT_TOKENS = 16  # a line cut shorter than this says too little to be worth its place
ELLIPSIS = "…"


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
    cited = " ".join(part for part in (record.source, record.source_reference) if part)
    if cited:
        notes.append(f"source: {cited}")
    suffix = f" ({'; '.join(notes)})" if notes else ""
    return f"[{record.id}] {record.domain}/{record.type.value.lower()}: {record.statement}{suffix}"


@dataclass(frozen=True)
class Packet:
    text: str
    records: list[Memory]
    tokens: int
    truncated: bool
    tokens_by_domain: dict[str, int] = field(default_factory=dict)


def must_keep(ranked: Sequence[Memory], scores: Mapping[str, float]) -> Memory | None:
    """The newest authoritative current constraint among the hits that bear on the request."""
    best = max((scores.get(r.id, 0.0) for r in ranked), default=0.0)
    constraints = [
        r
        for r in ranked
        if r.type is MemoryType.CONSTRAINT
        and r.status is Status.CURRENT
        and r.explicitness is Explicitness.EXPLICIT
        and best > 0
        and scores.get(r.id, 0.0) >= KEEP_SHARE * best
    ]
    return max(constraints, key=lambda r: (r.valid_from or "", r.learned_at or ""), default=None)


def cut_line(record: Memory, conflicts: Sequence[str], room: int, count: Counter) -> str | None:
    """`record`'s line with its statement cut at a word so that the line costs at most `room`
    tokens; None when not even its first word fits."""
    words = record.statement.split()
    found, low, high = None, 1, len(words) - 1
    while low <= high:  # the longest cut that fits: costs grow with the words kept
        middle = (low + high) // 2
        line = line_for(replace(record, statement=" ".join(words[:middle]) + " " + ELLIPSIS), conflicts)
        if count(line) <= room:
            found, low = line, middle + 1
        else:
            high = middle - 1
    return found


class _Fill:
    """The lines chosen so far and the tokens they use, per domain and in all."""

    def __init__(
        self,
        cost_of: Counter,
        cut: Callable[[Memory, int], bool] = lambda _r, _room: False,
        score: Callable[[Memory], float] = lambda _r: 1.0,
    ) -> None:
        self.cost_of = cost_of
        self.cut = cut  # shortens a record's line to fit a room of tokens, when it can
        self.score = score
        self.chosen: list[Memory] = []
        self.used: dict[str, int] = {}
        self.total = 0

    def add(self, record: Memory) -> None:
        self.chosen.append(record)
        self.used[record.domain] = self.used.get(record.domain, 0) + self.cost_of(record.id)
        self.total += self.cost_of(record.id)

    def drop_last(self) -> None:
        last = self.chosen.pop()
        self.used[last.domain] -= self.cost_of(last.id)
        self.total -= self.cost_of(last.id)

    def _far_below(self, record: Memory, deferred: list[Memory]) -> bool:
        """Much less relevant than a line a share deferred: it waits its turn behind that line (a
        share makes room for the other domains' comparable lines, not for their weakest)."""
        return bool(deferred) and self.score(record) < KEEP_SHARE * self.score(deferred[0])

    def _capped(self, record: Memory, cost: int, cap: Callable[[str], float]) -> bool:
        """Past its domain's share; a domain's first line never is (a share keeps one domain from
        crowding out the others, never shuts the most relevant one out of a tight budget)."""
        used = self.used.get(record.domain, 0)
        return used > 0 and used + cost > cap(record.domain)

    def first_pass(
        self, ranked: list[Memory], keep: Memory | None, max_records: int, max_tokens: int, cap: Callable[[str], float]
    ) -> list[Memory]:
        """Best first within the budgets and each domain's cap; answers the lines deferred by a cap."""
        deferred: list[Memory] = []
        for record in ranked:
            full = len(self.chosen) >= max_records
            if full and record is not keep:  # not counted: the budget never gets to it
                if keep is None or keep in self.chosen:
                    break
                continue
            cost = self.cost_of(record.id)
            if full:  # the kept constraint takes the least relevant line's place
                if self.total - self.cost_of(self.chosen[-1].id) + cost <= max_tokens:
                    self.drop_last()
                    self.add(record)
            elif record is not keep and (self._capped(record, cost, cap) or self._far_below(record, deferred)):
                deferred.append(record)
            elif self.total + cost <= max_tokens:
                self.add(record)
            elif not deferred:  # no more relevant line waits: this one is cut to fit, not passed over
                self.fit(record, max_tokens)
        return deferred

    def second_pass(self, deferred: list[Memory], max_records: int, max_tokens: int) -> None:
        """The lines a domain's share deferred, best first, in what the other domains left."""
        for record in deferred:
            if len(self.chosen) >= max_records:
                return
            if self.total + self.cost_of(record.id) <= max_tokens:
                self.add(record)
            else:
                self.fit(record, max_tokens)

    def fit(self, record: Memory, max_tokens: int) -> None:
        room = max_tokens - self.total
        if room >= MIN_CUT_TOKENS and self.cut(record, room):
            self.add(record)


def compile_packet(
    ranked: list[Memory],
    max_records: int,
    max_tokens: int,
    *,
    count: Counter | None = None,
    domain_share: float = 1.0,
    conflicts: Mapping[str, Sequence[str]] | None = None,
    shares: Mapping[str, float] | None = None,
    scores: Mapping[str, float] | None = None,
) -> Packet:
    """Best first until a budget runs out; see the module docstring for the rules."""
    count = count or estimate_tokens
    conflicts = conflicts or {}
    keep = must_keep(ranked, scores or {})
    by_id: dict[str, Memory] = {r.id: r for r in ranked}
    lines: dict[str, str] = {}
    costs: dict[str, int] = {}

    def cost_of(memory_id: str) -> int:  # counted only for records the budget gets to
        if memory_id not in costs:
            lines[memory_id] = line_for(by_id[memory_id], conflicts.get(memory_id, ()))
            costs[memory_id] = count(lines[memory_id])
        return costs[memory_id]

    several = len({r.domain for r in ranked}) > 1
    shares = shares or {}

    def cap(domain: str) -> float:  # a domain's own token share, never above domain_share
        share = min(domain_share, shares.get(domain, domain_share))
        return max_tokens * share if several and share < 1.0 else float(max_tokens)

    def cut(record: Memory, room: int) -> bool:
        line = cut_line(record, conflicts.get(record.id, ()), room, count)
        if line is not None:
            lines[record.id], costs[record.id] = line, count(line)
        return line is not None

    known = scores or {}
    fill = _Fill(cost_of, cut, lambda r: known.get(r.id, 1.0))
    deferred = fill.first_pass(ranked, keep, max_records, max_tokens, cap)
    fill.second_pass(deferred, max_records, max_tokens)
    chosen = fill.chosen
    picked = {r.id for r in chosen}
    truncated = any(r.id not in picked for r in ranked[:max_records])
    order = {r.id: i for i, r in enumerate(ranked)}
    chosen.sort(key=lambda r: order[r.id])
    text = "\n".join(lines[r.id] for r in chosen)
    return Packet(text, chosen, fill.total, truncated, fill.used)
