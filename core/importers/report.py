"""The review report of an import: every pass visible, capped lists, honest counts.

Statements shown are the person's own sentences from their own export; a statement refused
as holding a secret is never shown (only the class of secret).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TypedDict

from memvault.core.importers.conversation import Conversation
from memvault.core.importers.decide import Decision
from memvault.core.importers.prepare import Prepared

REPORT_ITEMS = 200  # per list; the counts cover everything
BYTES_PER_RECORD = 4000  # measured: ~3.9 KB a record with its indexes and vector (docs/status.md)
BYTES_PER_CONVERSATION = 600
CHARS_PER_TOKEN = 4


class ImportReport(TypedDict):
    dry_run: bool
    batch_id: str | None
    resumed: bool
    path: str
    format: str
    source_hash: str
    inventory: dict[str, Any]
    passes: dict[str, Any]
    additions: list[dict[str, Any]]
    corrections: list[dict[str, Any]]
    exclusions: list[dict[str, Any]]
    sensitivity_flags: list[dict[str, Any]]
    estimate: dict[str, Any]
    counts: dict[str, int]
    chunks: dict[str, int]


class ExportSummary(TypedDict):
    """What a file holds, read before any dry run (the desktop shows it when a file is chosen)."""

    path: str
    format: str
    conversations: int
    bytes: int
    first: str | None
    last: str | None


class KeptRecord(TypedDict):
    """A record a rollback leaves as it is, and why (ids and field names only)."""

    id: str
    reason: str


class RollbackReport(TypedDict):
    batch_id: str
    dry_run: bool  # True: what a rollback would do; nothing was written
    removed: int  # records the batch added, removed
    restored: int  # records the batch changed, put back
    conversations: int
    kept: list[KeptRecord]  # records changed since the batch (and what the batch tied to them): left alone


@dataclass
class Tally:
    conversations: int = 0
    turns: int = 0
    person_turns: int = 0
    first: str | None = None
    last: str | None = None
    by_type: Counter[str] = field(default_factory=Counter)
    actions: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    weak: int = 0
    sensitivity: Counter[str] = field(default_factory=Counter)
    dated: int = 0
    links: int = 0
    tokens: int = 0
    lists: dict[str, list[dict[str, Any]]] = field(
        default_factory=lambda: {"additions": [], "corrections": [], "exclusions": [], "sensitivity_flags": []}
    )

    def saw(self, conversation: Conversation) -> None:
        self.conversations += 1
        self.turns += len(conversation.turns)
        self.person_turns += len(conversation.user_turns)
        when = conversation.started_at
        if when:
            self.first = min(self.first or when, when)
            self.last = max(self.last or when, when)

    def _keep(self, name: str, entry: dict[str, Any]) -> None:
        if len(self.lists[name]) < REPORT_ITEMS:
            self.lists[name].append(entry)

    def judged(self, prepared: Prepared, decision: Decision) -> None:
        draft, item = prepared.draft, prepared.item
        self.by_type[draft.type.value] += 1
        self.weak += item.weak
        self.actions[decision.action] += 1
        entry: dict[str, Any] = {
            "statement": None if decision.secret else draft.statement,
            "type": draft.type.value,
            "conversation": item.conversation.title,
            "time": draft.event_time,
            "pointer": prepared.pointer,
            "weak": item.why_weak,
            "reason": decision.reason,
            "target_id": decision.target.id if decision.target else None,
            "replaces": decision.target.statement if decision.target and decision.action == "correct" else None,
            "sensitivity": draft.sensitivity.value,
        }
        if decision.action == "exclude":
            self.reasons[decision.reason.split(":")[0]] += 1
            self._keep("exclusions", entry)
            return
        if decision.action == "confirm":
            return
        self.dated += draft.event_time is not None
        self.tokens += len(draft.statement) // CHARS_PER_TOKEN + 1
        self._keep("corrections" if decision.action == "correct" else "additions", entry)
        if draft.sensitivity.value != "normal":
            self.sensitivity[draft.sensitivity.value] += 1
            self._keep("sensitivity_flags", entry)

    def inventory(self, left_out: int, size: int) -> dict[str, Any]:
        return {
            "conversations": self.conversations,
            "left_out_by_limits": left_out,
            "turns": self.turns,
            "person_turns": self.person_turns,
            "first": self.first,
            "last": self.last,
            "bytes": size,
        }

    def passes(self) -> dict[str, Any]:
        written = self.actions["add"] + self.actions["correct"]
        return {
            "extraction": {"candidates": sum(self.by_type.values()), "weak": self.weak, "by_type": dict(self.by_type)},
            "gate": {"refused": {k: v for k, v in self.reasons.items() if k == "refused"}},
            "dedup": {"already_known": self.actions["confirm"], "exclusions_by_reason": dict(self.reasons)},
            "conflicts": {"corrections": self.actions["correct"]},
            "linking": {"links": self.links},
            "provenance": {"with_pointer_and_hash": written},
            "sensitivity": dict(self.sensitivity),
            "validity": {"dated": self.dated, "undated": written - self.dated},
        }

    def estimate(self) -> dict[str, Any]:
        records = self.actions["add"] + self.actions["correct"]
        return {
            "records": records,
            "bytes": records * BYTES_PER_RECORD + self.conversations * BYTES_PER_CONVERSATION,
            "context_tokens_total": self.tokens,
            "context_tokens_per_record": round(self.tokens / records, 1) if records else 0,
        }

    def counts(self) -> dict[str, int]:
        return {
            "added": self.actions["add"],
            "corrected": self.actions["correct"],
            "confirmed": self.actions["confirm"],
            "excluded": self.actions["exclude"],
            "conversations": self.conversations,
        }
