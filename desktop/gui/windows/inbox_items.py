"""What the inbox shows for each pending proposal, gathered on the worker thread in one go.

A correction or archive carries the record as it stands now (old beside new); a purge request
carries what it would remove. Presentation words only: what a proposal does is core's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.results import ProposalRow

# The writer's classifications (mcp-contract memory_propose) by the kind of proposal they stage.
CLASSIFICATION = {"add": "ADD", "correct": "SUPERSEDE", "archive": "ARCHIVE", "restore": "RESTORE", "purge": "PURGE"}
KIND_TITLES = {
    "add": "New record",
    "correct": "Correction",
    "archive": "Archive",
    "restore": "Restore",
    "purge": "Purge request",
}
# Everything a confirmed purge reaches (docs/maintenance.md, core/maintenance/purge_reach.py).
PURGE_REACH = (
    "the encrypted store: the record, its versions, links, entities, proposals and feedback",
    "both search indexes and the embedding vectors",
    "generated Markdown exports that name it",
    "every backup memvault knows of (rewritten without it)",
)


@dataclass(frozen=True)
class InboxItem:
    proposal: ProposalRow
    current: dict[str, Any] | None = None  # the target record now (corrections, archives, restores)
    purge: dict[str, Any] | None = None  # purge preview: ids and statements to be removed
    backups: int = 0

    @property
    def id(self) -> str:
        return str(self.proposal["id"])

    @property
    def kind(self) -> str:
        return str(self.proposal["kind"])

    @property
    def needs_typed_confirmation(self) -> bool:
        return self.kind == "purge"

    def summary(self) -> str:
        payload = self.proposal["payload"]
        if self.kind == "add":
            return str(payload.get("draft", {}).get("statement", ""))
        if self.kind == "correct":
            return str(payload.get("statement", ""))
        if self.current is not None:
            return str(self.current.get("statement", ""))
        if self.purge is not None:
            return "; ".join(str(s) for s in self.purge.get("statements", {}).values())
        return str(self.proposal.get("target_id") or "")


def _current(vault: Vault, caller: Caller, memory_id: str | None) -> dict[str, Any] | None:
    if not memory_id:
        return None
    try:
        return dict(vault.get(caller, memory_id)["memory"])
    except MemvaultError:
        return None  # gone meanwhile: the inbox shows the proposal alone


def load_inbox(vault: Vault, caller: Caller) -> list[InboxItem]:
    """Every pending proposal with what it would change (runs on the worker)."""
    items = []
    backups = len(vault.list_backups(caller))
    for proposal in vault.proposals(caller, status="pending", limit=500):
        if proposal["kind"] == "purge":
            preview = vault.preview_purge(caller, proposal["id"])
            items.append(InboxItem(proposal, purge=dict(preview), backups=backups))
        else:
            items.append(InboxItem(proposal, current=_current(vault, caller, proposal.get("target_id"))))
    return items


@dataclass(frozen=True)
class Outcome:
    proposal_id: str
    ok: bool
    detail: str  # the outcome, or the refusal's message


def decide(vault: Vault, caller: Caller, items: list[InboxItem], approve: bool) -> list[Outcome]:
    """Approve or reject each item; one refusal does not stop the batch (each is its own transaction)."""
    decisions = []
    for item in items:
        answer: Mapping[str, object]
        try:
            if item.kind == "purge":
                answer = vault.confirm_purge(caller, item.id) if approve else vault.reject_purge(caller, item.id)
            else:
                answer = vault.approve(caller, item.id) if approve else vault.reject(caller, item.id)
            decisions.append(Outcome(item.id, True, str(answer.get("outcome", "done"))))
        except MemvaultError as exc:
            decisions.append(Outcome(item.id, False, f"{exc.code}: {exc.message}"))
    return decisions
